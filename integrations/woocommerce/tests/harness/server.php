<?php
/**
 * Router for `php -S`: serves the plugin's REST routes at /wp-json/…, as WordPress would.
 *
 * @package Rayo_For_WooCommerce
 */

require __DIR__ . '/wordpress.php';

$harness_path  = (string) parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH );
$harness_route = 0 === strpos( $harness_path, '/wp-json' ) ? substr( $harness_path, strlen( '/wp-json' ) ) : null;
$harness_args  = null === $harness_route || ! isset( $GLOBALS['harness_routes'][ $harness_route ] ) ? null : $GLOBALS['harness_routes'][ $harness_route ];

header( 'Content-Type: application/json' );
if ( null === $harness_args || $_SERVER['REQUEST_METHOD'] !== $harness_args['methods'] ) {
	http_response_code( 404 );
	echo json_encode( array( 'code' => 'rest_no_route' ) );
	return;
}
if ( ! call_user_func( $harness_args['permission_callback'] ) ) {
	http_response_code( 401 );
	return;
}
$harness_response = call_user_func( $harness_args['callback'], new WP_REST_Request( file_get_contents( 'php://input' ), getallheaders() ) );
http_response_code( $harness_response->status );
echo json_encode( $harness_response->data, JSON_UNESCAPED_SLASHES );
