<?php
/**
 * A stand-in for the parts of WordPress and WooCommerce the plugin calls, so that the plugin's own
 * files run unchanged against a real Rayo. Options, transients and orders live in one JSON file
 * (RAYO_HARNESS_STATE), held under an exclusive lock for the whole request or command so that a
 * webhook arriving during a command waits its turn, as database transactions would order them.
 *
 * @package Rayo_For_WooCommerce
 */

define( 'ABSPATH', __DIR__ . '/' );

/** The shop's state file and its lock. */
final class Harness_Store {
	/** @var array The whole state. */
	public static $state;
	/** @var resource The lock file. */
	private static $lock;

	/** Loads the state under the lock, which is held until the process ends. */
	public static function open() {
		$path = getenv( 'RAYO_HARNESS_STATE' );
		if ( ! is_string( $path ) || '' === $path ) {
			file_put_contents( 'php://stderr', "Set RAYO_HARNESS_STATE to the shop's state file (and HARNESS_HOME to its address).\n" );
			exit( 2 );
		}
		self::$lock = fopen( $path . '.lock', 'c' );
		flock( self::$lock, LOCK_EX );
		$text        = is_file( $path ) ? file_get_contents( $path ) : '';
		self::$state = '' === $text ? self::empty_state() : json_decode( $text, true );
	}

	/** A shop with no settings and no orders. */
	public static function empty_state() {
		return array(
			'options'    => array(),
			'transients' => array(),
			'orders'     => array(),
			'next_id'    => 100,
			'notices'    => array(),
			'log'        => array(),
		);
	}

	/**
	 * A pending order the shopper is about to pay with Rayo.
	 *
	 * @param array $input total, currency, and optionally items [{name, quantity}] and meta.
	 * @return int Its id.
	 */
	public static function create_order( array $input ) {
		$id = self::$state['next_id']++;
		self::$state['orders'][ (string) $id ] = array(
			'total'          => $input['total'],
			'currency'       => $input['currency'],
			'order_key'      => 'wc_order_' . bin2hex( random_bytes( 6 ) ),
			'payment_method' => 'rayo',
			'status'         => 'pending',
			'meta'           => isset( $input['meta'] ) ? $input['meta'] : array(),
			'notes'          => array(),
			'payments'       => array(),
			'items'          => isset( $input['items'] ) ? $input['items'] : array(),
		);
		self::save();
		return $id;
	}

	/** Writes the state back. */
	public static function save() {
		$path = getenv( 'RAYO_HARNESS_STATE' );
		file_put_contents( $path . '.tmp', json_encode( self::$state, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES ) );
		rename( $path . '.tmp', $path );
	}
}

Harness_Store::open();

// Hooks.
$GLOBALS['harness_hooks'] = array();
function add_action( $name, $callback, $priority = 10, $args = 1 ) {
	$GLOBALS['harness_hooks'][ $name ][] = $callback;
	return true;
}
function add_filter( $name, $callback, $priority = 10, $args = 1 ) {
	return add_action( $name, $callback, $priority, $args );
}
function remove_action( $name, $callback, $priority = 10 ) {
	$hooks = isset( $GLOBALS['harness_hooks'][ $name ] ) ? $GLOBALS['harness_hooks'][ $name ] : array();
	$GLOBALS['harness_hooks'][ $name ] = array_values(
		array_filter(
			$hooks,
			static function ( $hooked ) use ( $callback ) {
				return $hooked !== $callback;
			}
		)
	);
	return true;
}
function do_action( $name, ...$args ) {
	foreach ( isset( $GLOBALS['harness_hooks'][ $name ] ) ? $GLOBALS['harness_hooks'][ $name ] : array() as $callback ) {
		call_user_func_array( $callback, $args );
	}
}
function apply_filters( $name, $value, ...$args ) {
	foreach ( isset( $GLOBALS['harness_hooks'][ $name ] ) ? $GLOBALS['harness_hooks'][ $name ] : array() as $callback ) {
		$value = call_user_func_array( $callback, array_merge( array( $value ), $args ) );
	}
	return $value;
}
function __return_true() {
	return true;
}

// Text.
function __( $text, $domain = 'default' ) {
	return $text;
}
function esc_html( $text ) {
	return htmlspecialchars( (string) $text, ENT_QUOTES, 'UTF-8' );
}
function esc_html__( $text, $domain = 'default' ) {
	return esc_html( $text );
}
function wp_json_encode( $value ) {
	return json_encode( $value, JSON_UNESCAPED_SLASHES );
}

// Options and transients.
function get_option( $name, $fallback = false ) {
	return array_key_exists( $name, Harness_Store::$state['options'] ) ? Harness_Store::$state['options'][ $name ] : $fallback;
}
function update_option( $name, $value ) {
	Harness_Store::$state['options'][ $name ] = $value;
	Harness_Store::save();
	return true;
}
function delete_option( $name ) {
	unset( Harness_Store::$state['options'][ $name ] );
	Harness_Store::save();
	return true;
}
function get_transient( $name ) {
	$entry = isset( Harness_Store::$state['transients'][ $name ] ) ? Harness_Store::$state['transients'][ $name ] : null;
	return null !== $entry && $entry['expires'] > time() ? $entry['value'] : false;
}
function set_transient( $name, $value, $ttl ) {
	Harness_Store::$state['transients'][ $name ] = array(
		'value'   => $value,
		'expires' => time() + $ttl,
	);
	Harness_Store::save();
	return true;
}
function delete_transient( $name ) {
	unset( Harness_Store::$state['transients'][ $name ] );
	Harness_Store::save();
	return true;
}

// URLs.
function home_url( $path = '' ) {
	return rtrim( getenv( 'HARNESS_HOME' ), '/' ) . $path;
}
function rest_url( $path = '' ) {
	return home_url( '/wp-json/' . ltrim( $path, '/' ) );
}

// HTTP.
class WP_Error {
	/** @var string */
	private $message;
	public function __construct( $code = '', $message = '' ) {
		$this->message = $message;
	}
	public function get_error_message() {
		return $this->message;
	}
}
function is_wp_error( $thing ) {
	return $thing instanceof WP_Error;
}
function wp_remote_post( $url, $args = array() ) {
	$headers = array();
	foreach ( isset( $args['headers'] ) ? $args['headers'] : array() as $name => $value ) {
		$headers[] = $name . ': ' . $value;
	}
	$curl = curl_init( $url );
	curl_setopt_array(
		$curl,
		array(
			CURLOPT_POST           => true,
			CURLOPT_POSTFIELDS     => isset( $args['body'] ) ? $args['body'] : '',
			CURLOPT_HTTPHEADER     => $headers,
			CURLOPT_RETURNTRANSFER => true,
			CURLOPT_TIMEOUT        => isset( $args['timeout'] ) ? $args['timeout'] : 5,
			CURLOPT_FOLLOWLOCATION => false,
		)
	);
	$body = curl_exec( $curl );
	if ( false === $body ) {
		$error = curl_error( $curl );
		curl_close( $curl );
		return new WP_Error( 'http_request_failed', $error );
	}
	$status = curl_getinfo( $curl, CURLINFO_RESPONSE_CODE );
	curl_close( $curl );
	Harness_Store::$state['log'][] = 'POST ' . parse_url( $url, PHP_URL_PATH ) . ' ' . $status;
	Harness_Store::save();
	return array(
		'response' => array( 'code' => $status ),
		'body'     => $body,
	);
}
function wp_remote_retrieve_response_code( $response ) {
	return $response['response']['code'];
}
function wp_remote_retrieve_body( $response ) {
	return $response['body'];
}

// REST API.
$GLOBALS['harness_routes'] = array();
function register_rest_route( $namespace, $route, $args ) {
	$GLOBALS['harness_routes'][ '/' . $namespace . $route ] = $args;
	return true;
}
class WP_REST_Request {
	/** @var string */
	private $body;
	/** @var array Header names canonical as WordPress keeps them: lower case, '-' as '_'. */
	private $headers = array();
	public function __construct( $body, array $headers ) {
		$this->body = $body;
		foreach ( $headers as $name => $value ) {
			$this->headers[ str_replace( '-', '_', strtolower( $name ) ) ] = $value;
		}
	}
	public function get_body() {
		return $this->body;
	}
	public function get_header( $name ) {
		$key = str_replace( '-', '_', strtolower( $name ) );
		return isset( $this->headers[ $key ] ) ? $this->headers[ $key ] : null;
	}
}
class WP_REST_Response {
	/** @var mixed */
	public $data;
	/** @var int */
	public $status;
	public function __construct( $data = null, $status = 200 ) {
		$this->data   = $data;
		$this->status = $status;
	}
}

// WooCommerce.
function wc_get_price_decimals() {
	return (int) get_option( 'woocommerce_price_num_decimals', 2 );
}
function wc_add_notice( $message, $type = 'success' ) {
	Harness_Store::$state['notices'][] = array(
		'type'    => $type,
		'message' => $message,
	);
	Harness_Store::save();
}
class Harness_Logger {
	public function error( $message, $context = array() ) {
		Harness_Store::$state['log'][] = 'error: ' . $message;
		Harness_Store::save();
	}
}
function wc_get_logger() {
	return new Harness_Logger();
}
function wc_get_order( $id ) {
	return isset( Harness_Store::$state['orders'][ (string) $id ] ) ? new WC_Order( (int) $id ) : false;
}

/**
 * As wc_create_refund(): refuses an amount that is not positive or more than is left to refund
 * ("Invalid refund amount."), fires woocommerce_create_refund before the refund is saved, asks
 * the gateway to pay it only with refund_payment (counted in `gateway_refunds`), and moves a
 * fully refunded order to refunded.
 */
function wc_create_refund( $args ) {
	$order = wc_get_order( $args['order_id'] );
	$data  = &Harness_Store::$state['orders'][ (string) $order->get_id() ];
	$left  = round( (float) $order->get_total() - array_sum( array_column( isset( $data['refunds'] ) ? $data['refunds'] : array(), 'amount' ) ), 2 );
	$wants = round( (float) $args['amount'], 2 );
	if ( $wants <= 0 || $wants > $left ) {
		return new WP_Error( 'woocommerce_error', 'Invalid refund amount.' );
	}
	$refund = new WC_Order_Refund( $wants, isset( $args['reason'] ) ? $args['reason'] : '' );
	do_action( 'woocommerce_create_refund', $refund, $args );
	$data['refunds'][] = $refund->to_array();
	if ( ! empty( $args['refund_payment'] ) ) {
		$data['gateway_refunds'][] = $wants;
	}
	Harness_Store::save();
	if ( $wants === $left ) {
		$order->update_status( 'refunded' );
	}
	return $refund;
}

/** A refund of an order, as WC_Order_Refund exposes it. */
class WC_Order_Refund {
	/** @var float */
	private $amount;
	/** @var string */
	private $reason;
	/** @var array */
	private $meta = array();
	public function __construct( $amount, $reason, array $meta = array() ) {
		$this->amount = $amount;
		$this->reason = $reason;
		$this->meta   = $meta;
	}
	public function get_amount() {
		return $this->amount;
	}
	public function get_reason() {
		return $this->reason;
	}
	public function get_meta( $key ) {
		return isset( $this->meta[ $key ] ) ? $this->meta[ $key ] : '';
	}
	public function update_meta_data( $key, $value ) {
		$this->meta[ $key ] = $value;
	}
	public function to_array() {
		return array(
			'amount' => $this->amount,
			'reason' => $this->reason,
			'meta'   => $this->meta,
		);
	}
}

/** A line of an order. */
class WC_Order_Item_Product {
	/** @var string */
	private $name;
	/** @var int */
	private $quantity;
	public function __construct( $name, $quantity ) {
		$this->name     = $name;
		$this->quantity = $quantity;
	}
	public function get_name() {
		return $this->name;
	}
	public function get_quantity() {
		return $this->quantity;
	}
}

/** An order as WooCommerce's WC_Order exposes it, kept in the state file. */
class WC_Order {
	/** @var int */
	private $id;
	public function __construct( $id ) {
		$this->id = $id;
	}
	private function &data() {
		return Harness_Store::$state['orders'][ (string) $this->id ];
	}
	public function get_id() {
		return $this->id;
	}
	public function get_order_number() {
		return (string) $this->id;
	}
	public function get_total() {
		return $this->data()['total'];
	}
	public function get_currency() {
		return $this->data()['currency'];
	}
	public function get_order_key() {
		return $this->data()['order_key'];
	}
	public function get_payment_method() {
		return $this->data()['payment_method'];
	}
	public function get_items() {
		$items = array();
		foreach ( isset( $this->data()['items'] ) ? $this->data()['items'] : array() as $item ) {
			$items[] = new WC_Order_Item_Product( $item['name'], $item['quantity'] );
		}
		return $items;
	}
	public function get_refunds() {
		$refunds = array();
		foreach ( isset( $this->data()['refunds'] ) ? $this->data()['refunds'] : array() as $refund ) {
			$refunds[] = new WC_Order_Refund( $refund['amount'], $refund['reason'], $refund['meta'] );
		}
		return $refunds;
	}
	public function get_status() {
		return $this->data()['status'];
	}
	public function has_status( $status ) {
		return in_array( $this->get_status(), (array) $status, true );
	}
	public function is_paid() {
		return $this->has_status( array( 'processing', 'completed' ) );
	}
	public function get_meta( $key ) {
		$meta = $this->data()['meta'];
		return isset( $meta[ $key ] ) ? $meta[ $key ] : '';
	}
	public function update_meta_data( $key, $value ) {
		$this->data()['meta'][ $key ] = $value;
	}
	public function save() {
		Harness_Store::save();
		return $this->id;
	}
	public function add_order_note( $note ) {
		$this->data()['notes'][] = $note;
		Harness_Store::save();
	}
	public function get_transaction_id() {
		return isset( $this->data()['transaction_id'] ) ? $this->data()['transaction_id'] : '';
	}
	/** A Unix time where WooCommerce answers a WC_DateTime, null when never paid. */
	public function get_date_paid() {
		return isset( $this->data()['date_paid'] ) ? $this->data()['date_paid'] : null;
	}
	/**
	 * As WC_Order::update_status(): a change of status writes the note followed by WooCommerce's
	 * "Order status changed from … to …." and, into processing or completed, sets the date paid
	 * once; the status the order already has changes nothing and writes no note (set_status()
	 * records a transition only when from differs from to).
	 */
	public function update_status( $status, $note = '' ) {
		$data = &$this->data();
		$from = $data['status'];
		if ( $from === $status ) {
			return true;
		}
		$data['status'] = $status;
		if ( ! isset( $data['date_paid'] ) && in_array( $status, array( 'processing', 'completed' ), true ) ) {
			$data['date_paid'] = time();
		}
		$names           = array(
			'pending'        => 'Pending payment',
			'processing'     => 'Processing',
			'on-hold'        => 'On hold',
			'completed'      => 'Completed',
			'cancelled'      => 'Cancelled',
			'refunded'       => 'Refunded',
			'failed'         => 'Failed',
			'checkout-draft' => 'Draft',
		);
		$data['notes'][] = trim( $note . ' ' . sprintf( 'Order status changed from %1$s to %2$s.', $names[ $from ], $names[ $status ] ) );
		Harness_Store::save();
		return true;
	}
	/**
	 * As WC_Order::payment_complete(): only from on-hold, pending, failed or cancelled (a cancelled
	 * order is accepted), records the transaction id and the date paid, and moves to processing;
	 * `payments` counts the completions, each of which in WooCommerce reduces stock and sends mail.
	 */
	public function payment_complete( $transaction_id = '' ) {
		$data = &$this->data();
		if ( ! $this->has_status( array( 'on-hold', 'pending', 'failed', 'cancelled' ) ) ) {
			return false;
		}
		if ( '' !== $transaction_id ) {
			$data['transaction_id'] = $transaction_id;
		}
		$data['payments'][] = $transaction_id;
		$this->update_status( 'processing' );
		return true;
	}
	public function get_checkout_order_received_url() {
		return home_url( '/checkout/order-received/' . $this->id . '/?key=' . $this->get_order_key() );
	}
}

/** The settings and helpers of WooCommerce's WC_Payment_Gateway the plugin relies on. */
abstract class WC_Payment_Gateway {
	public $id;
	public $title;
	public $description;
	public $enabled = 'no';
	public $has_fields;
	public $method_title;
	public $method_description;
	public $supports    = array();
	public $form_fields = array();
	public $settings    = array();

	public function init_settings() {
		$this->settings = get_option( 'woocommerce_' . $this->id . '_settings', array() );
		foreach ( $this->form_fields as $key => $field ) {
			if ( ! isset( $this->settings[ $key ] ) ) {
				$this->settings[ $key ] = isset( $field['default'] ) ? $field['default'] : '';
			}
		}
		$this->enabled = $this->settings['enabled'];
	}
	public function get_option( $key, $empty_value = null ) {
		return isset( $this->settings[ $key ] ) ? $this->settings[ $key ] : $empty_value;
	}
	public function is_available() {
		return 'yes' === $this->enabled;
	}
	public function get_title() {
		return $this->title;
	}
	public function get_description() {
		return $this->description;
	}
	public function process_admin_options() {
		return true;
	}
	public function get_return_url( $order ) {
		return $order->get_checkout_order_received_url();
	}
}

// Scripts and the gateway registry, for the Checkout block integration.
$GLOBALS['harness_scripts'] = array();
function wp_register_script( $handle, $src, $deps = array(), $ver = false, $in_footer = false ) {
	$GLOBALS['harness_scripts'][ $handle ] = array(
		'src'  => $src,
		'deps' => $deps,
		'ver'  => $ver,
	);
	return true;
}
function plugins_url( $path, $plugin_file ) {
	return home_url( '/wp-content/plugins/' . basename( dirname( $plugin_file ) ) . '/' . $path );
}
/** WC()->payment_gateways()->payment_gateways(): the gateways by id, as WooCommerce builds them. */
final class Harness_WooCommerce {
	public function payment_gateways() {
		return new Harness_Payment_Gateways();
	}
}
final class Harness_Payment_Gateways {
	public function payment_gateways() {
		$gateways = array();
		foreach ( apply_filters( 'woocommerce_payment_gateways', array() ) as $class ) {
			$gateway                  = new $class();
			$gateways[ $gateway->id ] = $gateway;
		}
		return $gateways;
	}
}
function WC() {
	return new Harness_WooCommerce();
}

require __DIR__ . '/woocommerce-classes.php';
require dirname( __DIR__, 2 ) . '/rayo-for-woocommerce/rayo-for-woocommerce.php';
do_action( 'before_woocommerce_init' );
do_action( 'plugins_loaded' );
do_action( 'woocommerce_blocks_loaded' );
do_action( 'rest_api_init' );
