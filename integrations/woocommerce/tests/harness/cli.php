<?php
/**
 * The shop's side of a test, one command per run; prints its answer as JSON.
 *
 *   php cli.php configure '{"rayo_url":…}'   the gateway's settings (and enables it)
 *   php cli.php create-order '{"total":"73.00","currency":"GTQ","items":[{"name":"Mug","quantity":2}]}'
 *   php cli.php set-total <order id> <total>  the shopper changed the cart of a pending order
 *   php cli.php set-status <order id> <status> the merchant changes the order's status (cancels, refunds)
 *   php cli.php pay <order id>                the shopper picks Rayo at checkout
 *   php cli.php order <order id>              the order as stored
 *   php cli.php forget-access-token           as if the cached access token had expired
 *   php cli.php log                           the calls to Rayo and errors logged
 *   php cli.php blocks                        compatibility declared, and the Checkout block integration
 *   php cli.php uninstall                     WordPress deletes the plugin; answers the options and transients left
 *
 * @package Rayo_For_WooCommerce
 */

require __DIR__ . '/wordpress.php';

$harness_command = isset( $argv[1] ) ? $argv[1] : '';
$harness_arg     = isset( $argv[2] ) ? $argv[2] : '';
switch ( $harness_command ) {
	case 'configure':
		update_option( 'woocommerce_rayo_settings', array_merge( array( 'enabled' => 'yes' ), json_decode( $harness_arg, true ) ) );
		$harness_answer = get_option( 'woocommerce_rayo_settings' );
		break;
	case 'create-order':
		$harness_answer = array( 'id' => Harness_Store::create_order( json_decode( $harness_arg, true ) ) );
		break;
	case 'set-total':
		Harness_Store::$state['orders'][ $harness_arg ]['total'] = $argv[3];
		Harness_Store::save();
		$harness_answer = Harness_Store::$state['orders'][ $harness_arg ];
		break;
	case 'set-status':
		( new WC_Order( (int) $harness_arg ) )->update_status( $argv[3] );
		$harness_answer = Harness_Store::$state['orders'][ $harness_arg ];
		break;
	case 'pay':
		$harness_gateways = apply_filters( 'woocommerce_payment_gateways', array() );
		$harness_gateway  = new $harness_gateways[0]();
		if ( ! $harness_gateway->is_available() ) {
			fwrite( STDERR, "The gateway is not available: configure it first.\n" );
			exit( 1 );
		}
		Harness_Store::$state['notices'] = array();
		$harness_answer                  = $harness_gateway->process_payment( (int) $harness_arg );
		$harness_answer['notices']       = Harness_Store::$state['notices'];
		break;
	case 'order':
		$harness_answer = Harness_Store::$state['orders'][ $harness_arg ];
		break;
	case 'forget-access-token':
		Harness_Store::$state['transients'] = array();
		Harness_Store::save();
		$harness_answer = array( 'forgotten' => true );
		break;
	case 'log':
		$harness_answer = Harness_Store::$state['log'];
		break;
	case 'blocks':
		$harness_registry = new class() {
			/** @var array */
			public $registered = array();
			public function register( $integration ) {
				$this->registered[] = $integration;
			}
		};
		do_action( 'woocommerce_blocks_payment_method_type_registration', $harness_registry );
		$harness_answer = array(
			'declared' => \Automattic\WooCommerce\Utilities\FeaturesUtil::$declared,
			'methods'  => array(),
		);
		foreach ( $harness_registry->registered as $harness_method ) {
			$harness_method->initialize();
			$harness_answer['methods'][] = array(
				'name'    => $harness_method->get_name(),
				'active'  => $harness_method->is_active(),
				'scripts' => array_map(
					static function ( $handle ) {
						return array( 'handle' => $handle ) + $GLOBALS['harness_scripts'][ $handle ];
					},
					$harness_method->get_payment_method_script_handles()
				),
				'data'    => $harness_method->get_payment_method_data(),
			);
		}
		break;
	case 'uninstall':
		define( 'WP_UNINSTALL_PLUGIN', 'rayo-for-woocommerce/rayo-for-woocommerce.php' );
		require dirname( __DIR__, 2 ) . '/rayo-for-woocommerce/uninstall.php';
		$harness_answer = array(
			'options'    => array_keys( Harness_Store::$state['options'] ),
			'transients' => array_keys( Harness_Store::$state['transients'] ),
		);
		break;
	default:
		fwrite( STDERR, "Unknown command: $harness_command\n" );
		exit( 2 );
}
echo json_encode( $harness_answer, JSON_UNESCAPED_SLASHES ), "\n";
