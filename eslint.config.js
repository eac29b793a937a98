import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The services' capabilities, top to bottom (app/services/<capability>/):
 * each imports only itself and those below it, never one above; the
 * platform floor, at the bottom, every one may use. Operations (start-up,
 * demo, backup, health, the admin command) use everything; deleting an
 * account removes its articles and reports; a moderation decision hides or
 * deletes articles; articles carry images.
 */
export const CAPABILITIES = ["operations", "subscriptions", "accounts", "moderation", "articles", "images", "platform"];

/**
 * The layers import only downwards (docs/architecture.md):
 * routes → services → models → db → config, with lib usable from anywhere
 * and importing none of them; components import only lib and components.
 * Each folder lists what it may import; inside app/ a folder is named by its
 * `~/` path, never reached with `../`.
 */
const LAYERS = {
  "app/lib/**": ["lib"],
  "app/components/**": ["lib", "components"],
  "app/config/**": ["lib", "config"],
  "app/db/**": ["lib", "config", "db"],
  "app/models/**": ["lib", "config", "db", "models"],
  ...Object.fromEntries(
    CAPABILITIES.map((capability, at) => [
      `app/services/${capability}/**`,
      ["lib", "config", "db", "models", ...CAPABILITIES.slice(at).map((below) => `services/${below}`)],
    ]),
  ),
};

function layerRule(files, allowed) {
  const capabilities = files.startsWith("app/services/") ? ` (capabilities import only those below them: ${CAPABILITIES.join(" → ")})` : "";
  return {
    files: [files],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: `^~/(?!(${allowed.join("|")})/)`, message: `${files} may import only ~/{${allowed.join(",")}}: the layers import downwards${capabilities}.` },
            // The shared tag list is the one file outside app/ the app reads.
            { regex: "^(\\./)*\\.\\./(?!\\.\\./public/)", message: "Name another folder of app/ by its ~/ path." },
            // The data stamp is the page cache's, asked through the server interface only.
            { regex: "^~/db/changes", message: "Only app/server-interface.server.ts reads the page data stamp." },
          ],
        },
      ],
    },
  };
}

export default tseslint.config(
  { ignores: ["build/", "node_modules/", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    ...react.configs.flat.recommended,
    ...react.configs.flat["jsx-runtime"],
    settings: { react: { version: "18.3" } },
  },
  jsxA11y.flatConfigs.strict,
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  ...Object.entries(LAYERS).map(([files, allowed]) => layerRule(files, allowed)),
  {
    // Routes and the root: anything of the app but the HTTP server.
    files: ["app/routes/**", "app/root.tsx"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [{ regex: "^\\.\\./", message: "Name another folder of app/ by its ~/ path." }] }] },
  },
  {
    // The HTTP server knows the app only through the typed object it is handed (and the shared lib).
    files: ["server/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^~/(?!lib/)", allowTypeImports: true, message: "server/ reaches the app through appForServer (type imports only)." },
            { regex: "(^|/)app/", message: "server/ reaches the app through appForServer, never by a path." },
          ],
        },
      ],
    },
  },
  {
    // Scripts stand on their own (or on scripts/lib), never on tests.
    files: ["scripts/**"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [{ regex: "(^|/)tests/", message: "scripts/ must not depend on tests/." }] }] },
  },
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // Leaving fields out of an object by destructuring ({ secret, ...rest }) is no unused variable.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "react/prop-types": "off",
    },
  },
);
