// Runs one of the server build's commands (admin, backup, restore) with the
// same configuration and database code as the site:
//   node scripts/run-in-build.js <runAdminCommand|runBackup|runRestore> [args…]
const [command, ...args] = process.argv.slice(2);
const build = await import("../build/server/index.js").catch((error) => {
  console.error(error?.name === "EnvError" ? error.message : "Build the app first: npm run build");
  process.exit(1);
});
const run = build.entry.module[command];
const { code, output } = await (command === "runAdminCommand" ? run(args) : run(args[0]));
console.log(output);
process.exit(code);
