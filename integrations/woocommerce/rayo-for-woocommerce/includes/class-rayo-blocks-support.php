<?php
/**
 * The Rayo gateway in the Checkout block.
 *
 * @package Rayo_For_WooCommerce
 * @license GPL-2.0-or-later
 */

defined( 'ABSPATH' ) || exit;

use Automattic\WooCommerce\Blocks\Payments\Integrations\AbstractPaymentMethodType;

/**
 * The block checkout renders payment methods in the browser; this hands it the script that
 * registers Rayo there and the title and description from the gateway's settings.
 */
final class Rayo_Blocks_Support extends AbstractPaymentMethodType {

	/** @var string Matches the gateway id, so the block checkout pays through WC_Gateway_Rayo. */
	protected $name = 'rayo';

	/** Reads the gateway's settings. */
	public function initialize() {
		$this->settings = get_option( 'woocommerce_rayo_settings', array() );
	}

	/**
	 * Whether the block checkout offers Rayo: as the classic checkout does.
	 *
	 * @return bool
	 */
	public function is_active() {
		$gateways = WC()->payment_gateways()->payment_gateways();
		return isset( $gateways['rayo'] ) && $gateways['rayo']->is_available();
	}

	/**
	 * The registration script's handle.
	 *
	 * @return string[]
	 */
	public function get_payment_method_script_handles() {
		wp_register_script(
			'rayo-blocks',
			plugins_url( 'assets/js/blocks.js', RAYO_WC_PLUGIN_FILE ),
			array( 'wc-blocks-registry', 'wc-settings', 'wp-element', 'wp-html-entities' ),
			RAYO_WC_VERSION,
			true
		);
		return array( 'rayo-blocks' );
	}

	/**
	 * What blocks.js reads with getSetting( 'rayo_data' ).
	 *
	 * @return array
	 */
	public function get_payment_method_data() {
		return array(
			'title'       => $this->get_setting( 'title' ),
			'description' => $this->get_setting( 'description' ),
			'supports'    => array( 'products' ),
		);
	}
}
