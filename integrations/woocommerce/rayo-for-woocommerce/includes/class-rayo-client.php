<?php
/**
 * Rayo's store checkout API, called with a developer token.
 *
 * @package Rayo_For_WooCommerce
 * @license GPL-2.0-or-later
 */

defined( 'ABSPATH' ) || exit;

/**
 * A refusal or failure of a Rayo call: `code` is Rayo's error code (e.g. OrderIdConflict) or
 * `Unreachable` when no answer came.
 */
class Rayo_Api_Error extends Exception {

	/** @var string Rayo's error code. */
	public $rayo_code;

	/** @var int The HTTP status, 0 when there was no answer. */
	public $status;

	/**
	 * @param string $rayo_code Rayo's error code.
	 * @param string $message   What went wrong, for the log.
	 * @param int    $status    The HTTP status.
	 */
	public function __construct( $rayo_code, $message, $status ) {
		parent::__construct( $message );
		$this->rayo_code = $rayo_code;
		$this->status    = $status;
	}
}

/**
 * The developer token is a long-lived refresh token that Rayo does not rotate; it is exchanged for
 * a 15-minute access token, kept in a transient so that checkouts do not each pay an exchange.
 */
class Rayo_Client {

	/** Kept well inside the access token's 15 minutes, so a cached token is never sent expired. */
	const ACCESS_TOKEN_TTL = 600;

	/** @var string Rayo's address without a trailing slash. */
	private $base_url;

	/** @var string The developer token. */
	private $developer_token;

	/**
	 * @param string $base_url        Rayo's address, e.g. https://rayo.example.com.
	 * @param string $developer_token The developer token from Rayo's Settings.
	 */
	public function __construct( $base_url, $developer_token ) {
		$this->base_url        = rtrim( trim( $base_url ), '/' );
		$this->developer_token = trim( $developer_token );
	}

	/**
	 * Creates the checkout for an order, or answers the one Rayo already has for its order id.
	 *
	 * @param array $request The body of POST /api/checkouts.
	 * @return array The StoreCheckout.
	 * @throws Rayo_Api_Error When Rayo refuses or cannot be reached.
	 */
	public function create_checkout( array $request ) {
		$answer = $this->post_authorized( '/api/checkouts', $request );
		if ( ! isset( $answer['id'], $answer['url'], $answer['status'] ) ) {
			throw new Rayo_Api_Error( 'Unreadable', 'Rayo answered a checkout without id, url or status.', 200 );
		}
		return $answer;
	}

	/**
	 * POSTs with a cached access token; a 401 means it expired or was revoked, so it is exchanged
	 * once more and the call repeated.
	 *
	 * @param string $path The API path.
	 * @param array  $body The JSON body.
	 * @return array The decoded answer.
	 * @throws Rayo_Api_Error When Rayo refuses or cannot be reached.
	 */
	private function post_authorized( $path, array $body ) {
		try {
			return $this->post( $path, $body, $this->access_token( false ) );
		} catch ( Rayo_Api_Error $error ) {
			if ( 401 !== $error->status ) {
				throw $error;
			}
			return $this->post( $path, $body, $this->access_token( true ) );
		}
	}

	/**
	 * The access token, from the transient unless $fresh.
	 *
	 * @param bool $fresh Whether to exchange the developer token even when one is cached.
	 * @return string
	 * @throws Rayo_Api_Error When the exchange fails.
	 */
	private function access_token( $fresh ) {
		$key = 'rayo_access_' . md5( $this->base_url . '|' . $this->developer_token );
		if ( ! $fresh ) {
			$cached = get_transient( $key );
			if ( is_string( $cached ) && '' !== $cached ) {
				return $cached;
			}
		}
		$answer = $this->post( '/api/auth/refresh-access-token', array( 'refreshToken' => $this->developer_token ), null );
		if ( ! isset( $answer['accessToken'] ) || ! is_string( $answer['accessToken'] ) ) {
			throw new Rayo_Api_Error( 'Unreadable', 'Rayo answered the token exchange without an access token.', 200 );
		}
		set_transient( $key, $answer['accessToken'], self::ACCESS_TOKEN_TTL );
		return $answer['accessToken'];
	}

	/**
	 * One JSON POST.
	 *
	 * @param string      $path         The API path.
	 * @param array       $body         The JSON body.
	 * @param string|null $access_token The bearer token, if any.
	 * @return array The decoded answer.
	 * @throws Rayo_Api_Error On an error status or no answer.
	 */
	private function post( $path, array $body, $access_token ) {
		$headers = array(
			'Content-Type' => 'application/json',
			'Accept'       => 'application/json',
		);
		if ( null !== $access_token ) {
			$headers['Authorization'] = 'Bearer ' . $access_token;
		}
		$response = wp_remote_post(
			$this->base_url . $path,
			array(
				'headers'     => $headers,
				'body'        => wp_json_encode( $body ),
				'timeout'     => 20,
				'redirection' => 0,
			)
		);
		if ( is_wp_error( $response ) ) {
			throw new Rayo_Api_Error( 'Unreachable', 'Rayo could not be reached: ' . $response->get_error_message(), 0 );
		}
		$status  = (int) wp_remote_retrieve_response_code( $response );
		$decoded = json_decode( (string) wp_remote_retrieve_body( $response ), true );
		if ( $status >= 200 && $status < 300 && is_array( $decoded ) ) {
			return $decoded;
		}
		$code    = is_array( $decoded ) && isset( $decoded['code'] ) && is_string( $decoded['code'] ) ? $decoded['code'] : 'HttpError';
		$message = is_array( $decoded ) && isset( $decoded['message'] ) && is_string( $decoded['message'] ) ? $decoded['message'] : 'HTTP ' . $status;
		throw new Rayo_Api_Error( $code, $message, $status );
	}
}
