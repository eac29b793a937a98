import { execFile } from "node:child_process";

/** `npm run admin|backup|restore -- …` (through scripts/run-in-build.js) on the given data paths, with more settings if given. */
export function runBuildCommand(
  command: "runAdminCommand" | "runBackup" | "runRestore",
  args: string[],
  paths: { databasePath: string; uploadsDir: string },
  settings: Record<string, string> = {},
): Promise<{ code: number; output: string }> {
  const env = { PATH: process.env.PATH, DATABASE_PATH: paths.databasePath, UPLOADS_DIR: paths.uploadsDir, ...settings } as unknown as NodeJS.ProcessEnv;
  return new Promise((resolve) => {
    execFile(process.execPath, ["scripts/run-in-build.js", command, ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, output: `${stdout}${stderr}` });
    });
  });
}
