<?php
/**
 * What the merchant does in the test shop's admin, and what the test reads from its database,
 * one command per run through WordPress's and WooCommerce's own functions; answers JSON.
 *
 *   php shop-cli.php activate                      activates WooCommerce, then Rayo for WooCommerce
 *   php shop-cli.php set-up '{"hpos":true}'        the store (GTQ, Guatemala), its order storage, a product, a classic checkout page
 *   php shop-cli.php gateway                       whether checkout offers Rayo, and its settings as saved
 *   php shop-cli.php orders                        the ids of the newest orders, newest first
 *   php shop-cli.php order <id>                    the order: status, transaction, date paid, Rayo meta, notes, storage
 *   php shop-cli.php stock <product id>            the product's stock
 *   php shop-cli.php cancel <id>                   the merchant cancels the order
 *   php shop-cli.php refund <id>                   the merchant refunds all of the order, restocking its items
 *
 * @package Rayo_E2E
 */

if ( 'activate' === $argv[1] ) {
	// As the Plugins screen activates: in wp-admin, before WooCommerce is loaded.
	define( 'WP_ADMIN', true );
}
require getenv( 'SHOP_WORDPRESS' ) . '/wp-load.php';

use Automattic\WooCommerce\Utilities\OrderUtil;

/**
 * Stops with a message on stderr.
 *
 * @param string $message What went wrong.
 */
function rayo_fail( $message ) {
	fwrite( STDERR, $message . "\n" );
	exit( 1 );
}

/**
 * The order, or the command fails.
 *
 * @param string $id The order id.
 * @return WC_Order
 */
function rayo_order( $id ) {
	$order = wc_get_order( (int) $id );
	if ( ! $order ) {
		rayo_fail( "No order $id." );
	}
	return $order;
}

$rayo_argument = isset( $argv[2] ) ? $argv[2] : '';
switch ( $argv[1] ) {
	case 'activate':
		require_once ABSPATH . 'wp-admin/includes/plugin.php';
		foreach ( array( 'woocommerce/woocommerce.php', 'rayo-for-woocommerce/rayo-for-woocommerce.php' ) as $rayo_plugin ) {
			$rayo_result = activate_plugin( $rayo_plugin );
			if ( is_wp_error( $rayo_result ) ) {
				rayo_fail( $rayo_plugin . ': ' . $rayo_result->get_error_message() );
			}
		}
		$rayo_answer = array( 'active' => get_option( 'active_plugins' ) );
		break;

	case 'set-up':
		$rayo_input = json_decode( $rayo_argument, true );
		// What WooCommerce does on the first admin page after its installation (HPOS on by
		// default, the store "coming soon"), so that the merchant's own choices below stay.
		WC_Install::newly_installed();
		update_option( 'woocommerce_currency', 'GTQ' );
		update_option( 'woocommerce_default_country', 'GT' );
		update_option( 'woocommerce_allowed_countries', 'specific' );
		update_option( 'woocommerce_specific_allowed_countries', array( 'GT' ) );
		update_option( 'woocommerce_ship_to_countries', 'disabled' );
		update_option( 'woocommerce_manage_stock', 'yes' );
		update_option( 'woocommerce_coming_soon', 'no' );
		// WooCommerce refuses to change the order storage while orders are out of sync: the shop has none yet.
		update_option( 'woocommerce_custom_orders_table_enabled', $rayo_input['hpos'] ? 'yes' : 'no' );
		update_option( 'woocommerce_custom_orders_table_data_sync_enabled', 'no' );
		// The merchant went through WooCommerce's onboarding already: its first admin page is not the wizard.
		delete_transient( '_wc_activation_redirect' );
		update_option( 'woocommerce_onboarding_profile', array( 'skipped' => true ) );
		update_option( 'permalink_structure', '/%postname%/' );
		flush_rewrite_rules();

		$rayo_product = new WC_Product_Simple();
		$rayo_product->set_name( 'Café de Huehuetenango 340 g' );
		$rayo_product->set_regular_price( '73.00' );
		$rayo_product->set_manage_stock( true );
		$rayo_product->set_stock_quantity( 10 );
		$rayo_product->set_status( 'publish' );
		$rayo_product->save();
		// The block checkout is the page WooCommerce made at installation; the classic one is the shortcode.
		$rayo_classic = wp_insert_post(
			array(
				'post_type'    => 'page',
				'post_status'  => 'publish',
				'post_title'   => 'Classic checkout',
				'post_content' => '<!-- wp:shortcode -->[woocommerce_checkout]<!-- /wp:shortcode -->',
			),
			true
		);
		if ( is_wp_error( $rayo_classic ) ) {
			rayo_fail( $rayo_classic->get_error_message() );
		}
		// The test reads the debug log for the shop's warnings: this one shows the log is written where it reads.
		trigger_error( 'The test shop writes its debug log.', E_USER_NOTICE );
		$rayo_answer = array(
			'productId'          => $rayo_product->get_id(),
			'productUrl'         => get_permalink( $rayo_product->get_id() ),
			'blockCheckoutUrl'   => wc_get_checkout_url(),
			'classicCheckoutUrl' => get_permalink( $rayo_classic ),
		);
		break;

	case 'gateway':
		$rayo_gateways = WC()->payment_gateways()->get_available_payment_gateways();
		$rayo_answer   = array(
			'available' => isset( $rayo_gateways['rayo'] ),
			'settings'  => get_option( 'woocommerce_rayo_settings', array() ),
		);
		break;

	case 'orders':
		$rayo_answer = wc_get_orders(
			array(
				'limit'   => 10,
				'orderby' => 'ID',
				'order'   => 'DESC',
				'return'  => 'ids',
			)
		);
		break;

	case 'order':
		$rayo_order  = rayo_order( $rayo_argument );
		$rayo_notes  = wc_get_order_notes(
			array(
				'order_id' => $rayo_order->get_id(),
				'orderby'  => 'id',
				'order'    => 'ASC',
			)
		);
		$rayo_answer = array(
			'id'            => $rayo_order->get_id(),
			'status'        => $rayo_order->get_status(),
			'transactionId' => $rayo_order->get_transaction_id(),
			'datePaid'      => $rayo_order->get_date_paid() ? $rayo_order->get_date_paid()->format( DATE_ATOM ) : null,
			'checkoutId'    => $rayo_order->get_meta( '_rayo_checkout_id' ),
			'attempt'       => $rayo_order->get_meta( '_rayo_attempt' ),
			'notes'         => array_map(
				static function ( $note ) {
					return wp_strip_all_tags( html_entity_decode( $note->content, ENT_QUOTES, 'UTF-8' ) );
				},
				$rayo_notes
			),
			'refunds'       => array_map(
				static function ( $refund ) {
					return array(
						'amount'       => $refund->get_amount(),
						'reason'       => $refund->get_reason(),
						'rayoRefundId' => $refund->get_meta( '_rayo_refund_id' ),
					);
				},
				array_reverse( $rayo_order->get_refunds() )
			),
			'storage'       => OrderUtil::custom_orders_table_usage_is_enabled() ? 'hpos' : 'posts',
		);
		break;

	case 'stock':
		$rayo_answer = array( 'stock' => wc_get_product( (int) $rayo_argument )->get_stock_quantity() );
		break;

	case 'cancel':
		rayo_order( $rayo_argument )->update_status( 'cancelled', 'Cancelled by the merchant.', true );
		$rayo_answer = array( 'status' => rayo_order( $rayo_argument )->get_status() );
		break;

	case 'refund':
		$rayo_order = rayo_order( $rayo_argument );
		$rayo_lines = array();
		foreach ( $rayo_order->get_items() as $rayo_item_id => $rayo_item ) {
			$rayo_lines[ $rayo_item_id ] = array(
				'qty'          => $rayo_item->get_quantity(),
				'refund_total' => $rayo_item->get_total(),
			);
		}
		$rayo_refund = wc_create_refund(
			array(
				'order_id'      => $rayo_order->get_id(),
				'amount'        => $rayo_order->get_total(),
				'reason'        => 'Refunded by the merchant.',
				'line_items'    => $rayo_lines,
				'restock_items' => true,
			)
		);
		if ( is_wp_error( $rayo_refund ) ) {
			rayo_fail( $rayo_refund->get_error_message() );
		}
		$rayo_answer = array( 'status' => rayo_order( $rayo_argument )->get_status() );
		break;

	default:
		rayo_fail( 'Unknown command: ' . $argv[1] );
}
echo wp_json_encode( $rayo_answer, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE ), "\n";
