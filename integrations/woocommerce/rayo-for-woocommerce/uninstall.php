<?php
/**
 * Removes the plugin's settings and its cached access token when it is deleted in WordPress.
 * Orders keep their Rayo notes and meta: they are the shop's payment records.
 *
 * @package Rayo_For_WooCommerce
 * @license GPL-2.0-or-later
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

$rayo_settings = get_option( 'woocommerce_rayo_settings', array() );
if ( is_array( $rayo_settings ) && isset( $rayo_settings['rayo_url'], $rayo_settings['developer_token'] ) ) {
	// The key Rayo_Client caches the access token under; tokens of earlier settings expire on their own within minutes.
	delete_transient( 'rayo_access_' . md5( rtrim( trim( $rayo_settings['rayo_url'] ), '/' ) . '|' . trim( $rayo_settings['developer_token'] ) ) );
}
delete_option( 'woocommerce_rayo_settings' );
