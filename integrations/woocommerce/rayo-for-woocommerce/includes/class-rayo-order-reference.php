<?php
/**
 * The order id a WooCommerce order is known by in Rayo.
 *
 * @package Rayo_For_WooCommerce
 * @license GPL-2.0-or-later
 */

defined( 'ABSPATH' ) || exit;

/**
 * Rayo answers the same checkout for a repeated order id, so a retried payment never makes a
 * second checkout. When the first checkout can no longer be paid (it expired, or the shopper
 * changed the order's total), the order is sent again as "<order id>-<attempt>".
 */
final class Rayo_Order_Reference {

	/**
	 * The Rayo order id of a WooCommerce order's $attempt-th checkout (1 → "1001", 2 → "1001-2").
	 *
	 * @param int $order_id The WooCommerce order id.
	 * @param int $attempt  The attempt, from 1.
	 * @return string
	 * @throws InvalidArgumentException When either is not a positive integer.
	 */
	public static function format( $order_id, $attempt ) {
		if ( ! is_int( $order_id ) || $order_id < 1 || ! is_int( $attempt ) || $attempt < 1 ) {
			throw new InvalidArgumentException( 'Order id and attempt must be positive integers.' );
		}
		return 1 === $attempt ? (string) $order_id : $order_id . '-' . $attempt;
	}

	/**
	 * The WooCommerce order id in a Rayo order id, or null when it is not one this plugin made.
	 *
	 * @param string $reference The orderId of a checkout event.
	 * @return int|null
	 */
	public static function parse( $reference ) {
		if ( ! is_string( $reference ) || ! preg_match( '/^([1-9]\d{0,17})(?:-([1-9]\d{0,8}))?$/D', $reference, $parts ) ) {
			return null;
		}
		return (int) $parts[1];
	}
}
