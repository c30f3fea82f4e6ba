<?php
/**
 * Plugin Name: Test shop mailbox
 * Description: The test shop has no mail server: each mail WordPress would send is written, as one JSON line with its recipients and subject, to the file SHOP_MAILBOX names.
 *
 * @package Rayo_E2E
 */

add_filter(
	'pre_wp_mail',
	static function ( $short_circuit, $mail ) {
		$line = wp_json_encode(
			array(
				'to'      => is_array( $mail['to'] ) ? $mail['to'] : explode( ',', $mail['to'] ),
				'subject' => $mail['subject'],
			)
		);
		file_put_contents( getenv( 'SHOP_MAILBOX' ), $line . "\n", FILE_APPEND | LOCK_EX );
		return true;
	},
	10,
	2
);
