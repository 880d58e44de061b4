import { describe, expect, it } from 'vitest';
import { encryptSecret } from '../crypto/secret-box';
import { appSecretOf, cachedAppSecretCount } from './app-secret-cache';

describe('appSecretOf', () => {
  it('opens each envelope once and answers its own secret, a rotated secret included', () => {
    const first = encryptSecret('first-secret');
    const rotated = encryptSecret('rotated-secret');
    expect(appSecretOf(first)).toBe('first-secret');
    expect(appSecretOf(first)).toBe('first-secret');
    expect(appSecretOf(rotated)).toBe('rotated-secret');
    expect(appSecretOf(first)).toBe('first-secret');
  });

  it('refuses an envelope that does not open, and caches nothing for it', () => {
    const before = cachedAppSecretCount();
    const tampered = encryptSecret('secret').replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    expect(() => appSecretOf(tampered)).toThrow();
    expect(cachedAppSecretCount()).toBe(before);
  });

  it('holds at most 1,000 secrets, the oldest leaving first', () => {
    const envelopes = Array.from({ length: 1_050 }, (_, index) => encryptSecret(`secret-${index}`));
    for (const envelope of envelopes) appSecretOf(envelope);
    expect(cachedAppSecretCount()).toBe(1_000);
    expect(appSecretOf(envelopes[0]!)).toBe('secret-0');
    expect(appSecretOf(envelopes[1_049]!)).toBe('secret-1049');
  });
});
