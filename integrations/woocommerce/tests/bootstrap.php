<?php
/**
 * Loads the plugin on the harness's stand-in of WordPress and WooCommerce (tests/harness), with
 * the shop's state in a file of its own that lives as long as the run.
 *
 * @package Rayo_For_WooCommerce
 */

$rayo_state = tempnam( sys_get_temp_dir(), 'rayo-phpunit-' );
putenv( 'RAYO_HARNESS_STATE=' . $rayo_state );
putenv( 'HARNESS_HOME=https://shop.example' );
register_shutdown_function(
	static function () use ( $rayo_state ) {
		foreach ( array( '', '.lock', '.tmp' ) as $suffix ) {
			if ( is_file( $rayo_state . $suffix ) ) {
				unlink( $rayo_state . $suffix );
			}
		}
	}
);
require __DIR__ . '/harness/wordpress.php';
