/** A positive numeric CLI flag (`--cases 20`), or the fallback when absent; misuse throws. */
export function positiveNumber(
  name: string,
  raw: string | undefined,
  fallback: number,
  integer = false,
): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw new Error(
      `--${name} must be a positive ${integer ? 'integer' : 'number'} (got '${raw}')`,
    );
  return n;
}
