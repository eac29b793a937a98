// Builds the HTTP server (server/, TypeScript) into build/http/index.js, the
// file `npm run serve` and the Docker image run. Packages stay imports (they
// are installed); the few app/lib modules it uses are bundled in.
//   node scripts/build-server.js
import { fileURLToPath } from "node:url";
import { build } from "vite";

await build({
  configFile: false,
  logLevel: "warn",
  resolve: { alias: { "~": fileURLToPath(new URL("../app", import.meta.url)) } },
  build: {
    ssr: fileURLToPath(new URL("../server/index.ts", import.meta.url)),
    outDir: "build/http",
    emptyOutDir: true,
    copyPublicDir: false,
    target: "node20",
    rollupOptions: { output: { entryFileNames: "index.js" } },
  },
});
