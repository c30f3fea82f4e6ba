<?php
/**
 * The namespaced WooCommerce classes the plugin uses, reduced to what it calls: compatibility
 * declarations are recorded, and the block payment method base keeps its settings as WooCommerce's does.
 *
 * @package Rayo_For_WooCommerce
 */

namespace Automattic\WooCommerce\Utilities {

	final class FeaturesUtil {
		/** @var array Feature → [plugin file name, compatible]. */
		public static $declared = array();

		public static function declare_compatibility( $feature, $plugin_file, $positive_compatibility = true ) {
			self::$declared[ $feature ] = array( basename( $plugin_file ), $positive_compatibility );
			return true;
		}
	}
}

namespace Automattic\WooCommerce\Blocks\Payments\Integrations {

	abstract class AbstractPaymentMethodType {
		/** @var string */
		protected $name = '';
		/** @var array */
		protected $settings = array();

		abstract public function initialize();

		public function get_name() {
			return $this->name;
		}

		public function is_active() {
			return true;
		}

		public function get_payment_method_script_handles() {
			return array();
		}

		public function get_payment_method_data() {
			return array();
		}

		protected function get_setting( $name, $default_value = '' ) {
			return isset( $this->settings[ $name ] ) ? $this->settings[ $name ] : $default_value;
		}
	}
}
