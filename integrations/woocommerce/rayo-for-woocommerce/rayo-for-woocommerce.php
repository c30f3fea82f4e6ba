<?php
/**
 * Plugin Name:          Rayo for WooCommerce
 * Description:          Accept bitcoin (Lightning and on-chain) in WooCommerce through Rayo's hosted checkout.
 * Version:              1.2.0
 * Author:               Rayo
 * Text Domain:          rayo-for-woocommerce
 * Domain Path:          /languages
 * License:              GPL-2.0-or-later
 * License URI:          https://www.gnu.org/licenses/gpl-2.0.html
 * Requires at least:    6.5
 * Requires PHP:         7.4
 * Requires Plugins:     woocommerce
 * WC requires at least: 8.2
 * WC tested up to:      10.0
 *
 * @package Rayo_For_WooCommerce
 */

/*
 * Rayo for WooCommerce is free software: you can redistribute it and/or modify it under the terms
 * of the GNU General Public License as published by the Free Software Foundation, either version 2
 * of the License, or (at your option) any later version. It is distributed in the hope that it will
 * be useful, but WITHOUT ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public License for more details.
 */

defined( 'ABSPATH' ) || exit;

define( 'RAYO_WC_VERSION', '1.2.0' );
define( 'RAYO_WC_PLUGIN_FILE', __FILE__ );

require_once __DIR__ . '/includes/class-rayo-amount.php';
require_once __DIR__ . '/includes/class-rayo-signature.php';
require_once __DIR__ . '/includes/class-rayo-webhook-event.php';
require_once __DIR__ . '/includes/class-rayo-order-reference.php';

add_action(
	'before_woocommerce_init',
	static function () {
		if ( class_exists( \Automattic\WooCommerce\Utilities\FeaturesUtil::class ) ) {
			// Orders are read and written only through WC_Order, so custom order tables (HPOS) work.
			\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'custom_order_tables', __FILE__, true );
			\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'cart_checkout_blocks', __FILE__, true );
		}
	}
);

add_action(
	'plugins_loaded',
	static function () {
		// Without WooCommerce there is nothing to extend; WordPress 6.5+ already refuses to activate then.
		if ( ! class_exists( 'WC_Payment_Gateway' ) ) {
			return;
		}
		require_once __DIR__ . '/includes/class-rayo-client.php';
		require_once __DIR__ . '/includes/class-wc-gateway-rayo.php';
		require_once __DIR__ . '/includes/class-rayo-webhook-handler.php';

		add_filter(
			'woocommerce_payment_gateways',
			static function ( $gateways ) {
				$gateways[] = 'WC_Gateway_Rayo';
				return $gateways;
			}
		);
		// Outside the gateway class: WooCommerce builds gateways lazily, and the route must exist on every REST request.
		add_action( 'rest_api_init', array( 'Rayo_Webhook_Handler', 'register_route' ) );
	}
);

add_action(
	'woocommerce_blocks_loaded',
	static function () {
		if ( ! class_exists( \Automattic\WooCommerce\Blocks\Payments\Integrations\AbstractPaymentMethodType::class ) ) {
			return;
		}
		require_once __DIR__ . '/includes/class-rayo-blocks-support.php';
		add_action(
			'woocommerce_blocks_payment_method_type_registration',
			static function ( $registry ) {
				$registry->register( new Rayo_Blocks_Support() );
			}
		);
	}
);
