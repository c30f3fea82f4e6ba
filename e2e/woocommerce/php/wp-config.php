<?php
/**
 * The test shops' wp-config.php. One unpacked WordPress serves every shop of a run: each
 * `php -S` and each command names its shop's database, address, debug log and mailbox in its
 * environment (e2e/woocommerce/shop.ts).
 *
 * @package Rayo_E2E
 */

foreach ( array( 'SHOP_DB', 'SHOP_SOCKET', 'SHOP_URL', 'SHOP_DEBUG_LOG', 'SHOP_MAILBOX' ) as $rayo_variable ) {
	if ( ! getenv( $rayo_variable ) ) {
		fwrite( STDERR, "wp-config.php: $rayo_variable is not set.\n" );
		exit( 2 );
	}
}

define( 'DB_NAME', getenv( 'SHOP_DB' ) );
define( 'DB_USER', 'root' );
define( 'DB_PASSWORD', '' );
define( 'DB_HOST', 'localhost:' . getenv( 'SHOP_SOCKET' ) );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
$table_prefix = 'wp_';

define( 'AUTH_KEY', 'rayo-e2e-auth-key' );
define( 'SECURE_AUTH_KEY', 'rayo-e2e-secure-auth-key' );
define( 'LOGGED_IN_KEY', 'rayo-e2e-logged-in-key' );
define( 'NONCE_KEY', 'rayo-e2e-nonce-key' );
define( 'AUTH_SALT', 'rayo-e2e-auth-salt' );
define( 'SECURE_AUTH_SALT', 'rayo-e2e-secure-auth-salt' );
define( 'LOGGED_IN_SALT', 'rayo-e2e-logged-in-salt' );
define( 'NONCE_SALT', 'rayo-e2e-nonce-salt' );

define( 'WP_HOME', getenv( 'SHOP_URL' ) );
define( 'WP_SITEURL', getenv( 'SHOP_URL' ) );

// Every PHP warning, notice and deprecation goes to the log the test reads, none to the page.
define( 'WP_DEBUG', true );
define( 'WP_DEBUG_LOG', getenv( 'SHOP_DEBUG_LOG' ) );
define( 'WP_DEBUG_DISPLAY', false );

// Test traffic stays on loopback: no calls to wordpress.org or woocommerce.com, no updates.
define( 'WP_HTTP_BLOCK_EXTERNAL', true );
define( 'AUTOMATIC_UPDATER_DISABLED', true );
define( 'DISABLE_WP_CRON', true );

if ( ! defined( 'ABSPATH' ) ) {
	define( 'ABSPATH', __DIR__ . '/' );
}
require_once ABSPATH . 'wp-settings.php';
