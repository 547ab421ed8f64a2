function ipv4ToInt(address: string): number | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    const v = Number(p);
    if (!/^\d{1,3}$/.test(p) || v > 255) return null;
    n = n * 256 + v;
  }
  return n;
}

/**
 * Whether a client address is inside a key's address fence: each entry is an exact address or an IPv4 CIDR
 * range (`10.0.0.0/8`).
 */
export function addressInFence(address: string, fence: readonly string[]): boolean {
  for (const entry of fence) {
    if (entry === address) return true;
    const slash = entry.indexOf('/');
    if (slash < 0) continue;
    const base = ipv4ToInt(entry.slice(0, slash));
    const bits = Number(entry.slice(slash + 1));
    const ip = ipv4ToInt(address);
    if (base === null || ip === null || !(bits >= 0 && bits <= 32)) continue;
    const size = 2 ** (32 - bits);
    if (Math.floor(ip / size) === Math.floor(base / size)) return true;
  }
  return false;
}
