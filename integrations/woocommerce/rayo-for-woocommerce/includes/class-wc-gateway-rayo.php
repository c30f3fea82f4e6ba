<?php
/**
 * The Rayo payment gateway: bitcoin over Lightning or on-chain on Rayo's hosted checkout.
 *
 * @package Rayo_For_WooCommerce
 * @license GPL-2.0-or-later
 */

defined( 'ABSPATH' ) || exit;

/**
 * Sends the shopper to a Rayo checkout for the order's total; the order is marked paid by
 * Rayo's signed webhook (Rayo_Webhook_Handler), never by the shopper's return.
 */
class WC_Gateway_Rayo extends WC_Payment_Gateway {

	const ID = 'rayo';

	/** Order meta: the current Rayo checkout of the order. */
	const META_CHECKOUT_ID = '_rayo_checkout_id';

	/** Order meta: the amount and currency that checkout asks for. */
	const META_AMOUNT   = '_rayo_amount';
	const META_CURRENCY = '_rayo_currency';

	/** Order meta: how many checkouts the order has had (see Rayo_Order_Reference). */
	const META_ATTEMPT = '_rayo_attempt';

	/** Set up the gateway and its settings. */
	public function __construct() {
		$this->id                 = self::ID;
		$this->has_fields         = false;
		$this->method_title       = __( 'Rayo', 'rayo-for-woocommerce' );
		$this->method_description = __( 'Bitcoin payments (Lightning and on-chain) on Rayo’s hosted checkout.', 'rayo-for-woocommerce' );
		$this->supports = array( 'products' );

		$this->init_form_fields();
		$this->init_settings();
		$this->title       = $this->get_option( 'title' );
		$this->description = $this->get_option( 'description' );

		add_action( 'woocommerce_update_options_payment_gateways_' . $this->id, array( $this, 'process_admin_options' ) );
	}

	/** The settings shown in WooCommerce → Settings → Payments → Rayo. */
	public function init_form_fields() {
		$this->form_fields = array(
			'enabled'         => array(
				'title'   => __( 'Enable/Disable', 'rayo-for-woocommerce' ),
				'type'    => 'checkbox',
				'label'   => __( 'Accept bitcoin with Rayo', 'rayo-for-woocommerce' ),
				'default' => 'no',
			),
			'title'           => array(
				'title'       => __( 'Title', 'rayo-for-woocommerce' ),
				'type'        => 'text',
				'description' => __( 'The payment method’s name at checkout.', 'rayo-for-woocommerce' ),
				'default'     => __( 'Bitcoin (Lightning or on-chain)', 'rayo-for-woocommerce' ),
				'desc_tip'    => true,
			),
			'description'     => array(
				'title'       => __( 'Description', 'rayo-for-woocommerce' ),
				'type'        => 'textarea',
				'description' => __( 'Shown to the shopper under the title.', 'rayo-for-woocommerce' ),
				'default'     => __( 'You will pay on Rayo’s secure checkout page, then come back here.', 'rayo-for-woocommerce' ),
				'desc_tip'    => true,
			),
			'rayo_url'        => array(
				'title'       => __( 'Rayo URL', 'rayo-for-woocommerce' ),
				'type'        => 'url',
				'description' => __( 'The address of your Rayo, e.g. https://rayo.example.com.', 'rayo-for-woocommerce' ),
				'default'     => '',
			),
			'developer_token' => array(
				'title'       => __( 'Developer token', 'rayo-for-woocommerce' ),
				'type'        => 'password',
				'description' => __( 'Created by an admin in Rayo → Settings → Developer token.', 'rayo-for-woocommerce' ),
				'default'     => '',
			),
			'webhook_secret'  => array(
				'title'       => __( 'Webhook secret', 'rayo-for-woocommerce' ),
				'type'        => 'password',
				'description' => __( 'The whsec_… secret Rayo shows once when you add the webhook endpoint in Integrations.', 'rayo-for-woocommerce' ),
				'default'     => '',
			),
			'virtual_bpt_id'  => array(
				'title'       => __( 'Virtual BPT id (optional)', 'rayo-for-woocommerce' ),
				'type'        => 'text',
				'description' => __( 'Needed only when your organization has more than one virtual BPT.', 'rayo-for-woocommerce' ),
				'default'     => '',
				'desc_tip'    => true,
			),
		);
	}

	/**
	 * The settings page, with the address to register in Rayo: built here rather than in the
	 * constructor, which WooCommerce may run before WordPress can make REST URLs.
	 */
	public function admin_options() {
		parent::admin_options();
		echo '<p>' . esc_html__( 'In Rayo, Integrations → Webhooks, add this endpoint with the checkout.paid, checkout.expired, checkout.processing, checkout.underpaid and checkout.refunded events, and paste its secret above:', 'rayo-for-woocommerce' )
			. ' <code>' . esc_html( rest_url( 'rayo/v1/webhook' ) ) . '</code></p>';
	}

	/**
	 * Offered only once it can reach Rayo and check its webhooks.
	 *
	 * @return bool
	 */
	public function is_available() {
		return parent::is_available()
			&& '' !== trim( $this->get_option( 'rayo_url' ) )
			&& '' !== trim( $this->get_option( 'developer_token' ) )
			&& '' !== trim( $this->get_option( 'webhook_secret' ) );
	}

	/**
	 * Creates (or finds again) the order's Rayo checkout and sends the shopper to it.
	 *
	 * @param int $order_id The order.
	 * @return array
	 */
	public function process_payment( $order_id ) {
		$order = wc_get_order( $order_id );
		if ( ! $order ) {
			wc_add_notice( __( 'The order was not found.', 'rayo-for-woocommerce' ), 'error' );
			return array( 'result' => 'failure' );
		}
		try {
			$decimals = wc_get_price_decimals();
			$minor    = Rayo_Amount::order_total_to_minor_units( $order->get_total(), $decimals );
			$amount   = Rayo_Amount::shortest_decimal( $minor, $decimals );
			$currency = $order->get_currency();
			$attempt  = max( 1, (int) $order->get_meta( self::META_ATTEMPT ) );
			$checkout = $this->open_checkout( $order, $amount, $currency, $attempt );
		} catch ( Rayo_Api_Error $error ) {
			$this->log( sprintf( 'Order %d: Rayo refused the checkout (%s, HTTP %d): %s', $order->get_id(), $error->rayo_code, $error->status, $error->getMessage() ) );
			wc_add_notice( $this->refusal_notice( $error ), 'error' );
			return array( 'result' => 'failure' );
		} catch ( InvalidArgumentException $error ) {
			$this->log( sprintf( 'Order %d: the total cannot be paid with Rayo: %s', $order->get_id(), $error->getMessage() ) );
			wc_add_notice( __( 'This order’s total cannot be paid with bitcoin. Please choose another payment method.', 'rayo-for-woocommerce' ), 'error' );
			return array( 'result' => 'failure' );
		}

		if ( 'paid' === $checkout['status'] ) {
			return array(
				'result'   => 'success',
				'redirect' => $this->get_return_url( $order ),
			);
		}
		$new_checkout = $order->get_meta( self::META_CHECKOUT_ID ) !== $checkout['id'];
		$order->update_meta_data( self::META_CHECKOUT_ID, $checkout['id'] );
		$order->update_meta_data( self::META_AMOUNT, $amount );
		$order->update_meta_data( self::META_CURRENCY, $currency );
		$order->update_meta_data( self::META_ATTEMPT, (string) $checkout['attempt'] );
		/* translators: %s: Rayo checkout id. */
		$note = sprintf( __( 'Awaiting payment on Rayo checkout %s.', 'rayo-for-woocommerce' ), $checkout['id'] );
		if ( $order->has_status( 'pending' ) ) {
			// update_status() to the status an order already has writes no note; the checkout's
			// note is written once, not again when the shopper places the same order twice.
			$order->save();
			if ( $new_checkout ) {
				$order->add_order_note( $note );
			}
		} else {
			$order->update_status( 'pending', $note );
		}
		return array(
			'result'   => 'success',
			'redirect' => $checkout['url'],
		);
	}

	/**
	 * The checkout of the order's current attempt; a new attempt when that one can no longer be
	 * paid: it expired, or the order's total changed since (Rayo's OrderIdConflict).
	 *
	 * @param WC_Order $order    The order.
	 * @param string   $amount   The total as a decimal string.
	 * @param string   $currency The order's currency.
	 * @param int      $attempt  The attempt recorded on the order.
	 * @return array The StoreCheckout plus the attempt it belongs to.
	 * @throws Rayo_Api_Error When Rayo refuses.
	 */
	private function open_checkout( $order, $amount, $currency, $attempt ) {
		$client = new Rayo_Client( $this->get_option( 'rayo_url' ), $this->get_option( 'developer_token' ) );
		try {
			$checkout = $client->create_checkout( $this->checkout_request( $order, $amount, $currency, $attempt ) );
			if ( 'expired' !== $checkout['status'] ) {
				return $checkout + array( 'attempt' => $attempt );
			}
		} catch ( Rayo_Api_Error $error ) {
			if ( 'OrderIdConflict' !== $error->rayo_code ) {
				throw $error;
			}
		}
		++$attempt;
		return $client->create_checkout( $this->checkout_request( $order, $amount, $currency, $attempt ) ) + array( 'attempt' => $attempt );
	}

	/**
	 * The body of POST /api/checkouts for an order.
	 *
	 * @param WC_Order $order    The order.
	 * @param string   $amount   The total as a decimal string.
	 * @param string   $currency The order's currency.
	 * @param int      $attempt  The attempt.
	 * @return array
	 */
	private function checkout_request( $order, $amount, $currency, $attempt ) {
		$request = array(
			'amount'      => $amount,
			'currency'    => $currency,
			'orderId'     => Rayo_Order_Reference::format( (int) $order->get_id(), $attempt ),
			'redirectUrl' => $this->get_return_url( $order ),
			'metadata'    => array(
				'orderKey'  => $order->get_order_key(),
				'wcOrderId' => (string) $order->get_id(),
			),
		);
		// The hosted page already names the order id and the shop: the payer is shown what they are buying.
		$description = $this->items_summary( $order );
		if ( '' !== $description ) {
			$request['description'] = $description;
		}
		$virtual_bpt_id = trim( $this->get_option( 'virtual_bpt_id' ) );
		if ( '' !== $virtual_bpt_id ) {
			$request['virtualBptId'] = $virtual_bpt_id;
		}
		return $request;
	}

	/**
	 * "Coffee beans × 2, Mug", within the 300 characters Rayo shows.
	 *
	 * @param WC_Order $order The order.
	 * @return string
	 */
	private function items_summary( $order ) {
		$items = array();
		foreach ( $order->get_items() as $item ) {
			$quantity = (int) $item->get_quantity();
			$items[]  = $quantity > 1 ? $item->get_name() . ' × ' . $quantity : $item->get_name();
		}
		$summary = trim( preg_replace( '/\s+/u', ' ', implode( ', ', $items ) ) );
		return mb_strlen( $summary ) > 300 ? mb_substr( $summary, 0, 299 ) . '…' : $summary;
	}

	/**
	 * What the shopper is told; the details are in the log for the merchant.
	 *
	 * @param Rayo_Api_Error $error The refusal.
	 * @return string
	 */
	private function refusal_notice( Rayo_Api_Error $error ) {
		if ( 'InvalidCurrency' === $error->rayo_code ) {
			return __( 'Bitcoin payment is not available in this currency. Please choose another payment method.', 'rayo-for-woocommerce' );
		}
		if ( 'InvalidAmount' === $error->rayo_code ) {
			return __( 'This order’s total cannot be paid with bitcoin. Please choose another payment method.', 'rayo-for-woocommerce' );
		}
		return __( 'The bitcoin payment could not be started. Please try again, or choose another payment method.', 'rayo-for-woocommerce' );
	}

	/**
	 * Writes to WooCommerce → Status → Logs (source rayo); never the token or the secret.
	 *
	 * @param string $message The entry.
	 */
	private function log( $message ) {
		wc_get_logger()->error( $message, array( 'source' => 'rayo' ) );
	}
}
