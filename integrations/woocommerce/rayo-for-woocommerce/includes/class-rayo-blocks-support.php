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
		$gateway = $this->gateway();
		return null !== $gateway && $gateway->is_available();
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
		$gateway = $this->gateway();
		return array(
			// From the gateway rather than the stored settings, which lack the defaults until an admin saves them.
			'title'       => null === $gateway ? $this->get_setting( 'title' ) : $gateway->get_title(),
			'description' => null === $gateway ? $this->get_setting( 'description' ) : $gateway->get_description(),
			'supports'    => null === $gateway ? array( 'products' ) : array_values( $gateway->supports ),
		);
	}

	/**
	 * The classic gateway this block method pays through, when WooCommerce has it.
	 *
	 * @return WC_Gateway_Rayo|null
	 */
	private function gateway() {
		$gateways = WC()->payment_gateways()->payment_gateways();
		return isset( $gateways[ $this->name ] ) ? $gateways[ $this->name ] : null;
	}
}
