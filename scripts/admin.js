// npm run admin -- grant|revoke|disable|enable <email> | list
// Runs inside the server build, so it uses the same configuration and database code.
const build = await import("../build/server/index.js").catch((error) => {
  console.error(error?.name === "EnvError" ? error.message : "Build the app first: npm run build");
  process.exit(1);
});
const { code, output } = build.entry.module.runAdminCommand(process.argv.slice(2));
console.log(output);
process.exit(code);
