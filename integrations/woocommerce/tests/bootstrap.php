<?php
/**
 * Loads the plugin's pure classes, which call no WordPress function.
 *
 * @package Rayo_For_WooCommerce
 */

define( 'ABSPATH', __DIR__ . '/' );

$rayo_includes = dirname( __DIR__ ) . '/rayo-for-woocommerce/includes';
require_once $rayo_includes . '/class-rayo-amount.php';
require_once $rayo_includes . '/class-rayo-signature.php';
require_once $rayo_includes . '/class-rayo-webhook-event.php';
require_once $rayo_includes . '/class-rayo-order-reference.php';
