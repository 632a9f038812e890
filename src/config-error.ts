/** A configuration variable with a value the product cannot use; the message names it and what it accepts. */
export class ConfigError extends Error {}
