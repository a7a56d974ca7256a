/** The order a comparison walks two snapshots in: every key either side has, sorted. */

export const byText = (a: string, b: string) => a.localeCompare(b);
export const union = (a: object, b: object) => [...new Set([...Object.keys(a), ...Object.keys(b)])];
