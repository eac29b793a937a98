import { attemptsSoFar, countAttempt, purgeOldAttempts } from "~/models/rate-limits.server";

const MINUTE = 60 * 1000;

/**
 * Attempts allowed per window. Windows end by themselves: never a permanent
 * lock-out. Per-address limits leave room for a school class behind one NAT.
 */
export const LIMITS = {
  signinFailuresPerAddress: { max: 50, windowMs: 15 * MINUTE },
  signinFailuresPerAccount: { max: 10, windowMs: 15 * MINUTE },
  registerPerAddress: { max: 30, windowMs: 60 * MINUTE },
  resetPerAddress: { max: 20, windowMs: 60 * MINUTE },
  resetPerAccount: { max: 5, windowMs: 60 * MINUTE },
} as const;

type Limit = keyof typeof LIMITS;

/** Whether `subject` has used up `limit` in the current window (counts nothing). */
export function isThrottled(limit: Limit, subject: string, now = Date.now()): boolean {
  const { max, windowMs } = LIMITS[limit];
  return attemptsSoFar(`${limit}:${subject}`, windowMs, now) >= max;
}

/** Count one attempt of `subject` against `limit`. */
export function countAgainst(limit: Limit, subject: string, now = Date.now()): void {
  countAttempt(`${limit}:${subject}`, LIMITS[limit].windowMs, now);
  if (Math.random() < 0.01) purgeOldAttempts(now - 24 * 60 * MINUTE);
}
