/** See api-launch.mjs. */
export declare const API_NODE_FLAGS: readonly string[];
export declare const API_ENV: Readonly<Record<string, string>>;
