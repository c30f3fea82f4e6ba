<?php
/**
 * Router for `php -S`, standing in for the web server's rewrite rules: a file that exists is
 * served (and a .php file run) as it is; any other path goes to WordPress's index.php, so pretty
 * permalinks and /wp-json/ work.
 *
 * @package Rayo_E2E
 */

$rayo_root = $_SERVER['DOCUMENT_ROOT'];
$rayo_path = urldecode( (string) parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH ) );
if ( is_file( $rayo_root . $rayo_path ) || is_file( rtrim( $rayo_root . $rayo_path, '/' ) . '/index.php' ) ) {
	return false;
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['PHP_SELF']    = '/index.php';
require $rayo_root . '/index.php';
