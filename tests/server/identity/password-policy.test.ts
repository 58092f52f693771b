import { describe, expect, it } from 'vitest';
import { passwordProblems } from '#server/modules/identity/password-policy.ts';

const owner = { firstName: 'Srinivasa', lastName: 'Ramanujan', userName: 'number.theorist', email: 'hardy.friend@example.com' };

describe('password policy', () => {
  it('should refuse 11 characters and accept 12 when nothing else is wrong', async () => {
    expect(await passwordProblems('Zq7#mK2!pLx', owner)).toEqual(['Passwords must be at least 12 characters long.']);
    expect(await passwordProblems('Zq7#mK2!pLx9', owner)).toEqual([]);
  });

  it('should count characters, not UTF-16 units, and impose no composition rule', async () => {
    expect(await passwordProblems('🦊🌲🌙🔥🎈🧩🛶🍋🪁🎻🧭', owner)).toEqual(['Passwords must be at least 12 characters long.']);
    expect(await passwordProblems('🦊🌲🌙🔥🎈🧩🛶🍋🪁🎻🧭🪐', owner)).toEqual([]);
    expect(await passwordProblems('lantern orbit velvet meadow', owner)).toEqual([]);
  });

  it('should accept 128 and 256 characters and refuse 257', async () => {
    const phrase = 'river stone amber falcon quiet meadow '.repeat(8);
    expect(await passwordProblems(phrase.slice(0, 128), owner)).toEqual([]);
    expect(await passwordProblems(phrase.slice(0, 256), owner)).toEqual([]);
    expect(await passwordProblems(`${phrase.slice(0, 256)}x`, owner)).toEqual(['Passwords must be at most 256 characters long.']);
  });

  it('should refuse passwords from the offline list of common and breached passwords whatever their case', async () => {
    expect(await passwordProblems('1qaz2wsx3edc', owner)).toEqual(['This password is on a list of common or breached passwords. Choose a different one.']);
    expect(await passwordProblems('Password1234', owner)).toEqual(['This password is on a list of common or breached passwords. Choose a different one.']);
    expect(await passwordProblems('QWERTY123456', owner)).toEqual(['This password is on a list of common or breached passwords. Choose a different one.']);
  });

  it('should refuse a password containing the name, user name or e-mail of its owner', async () => {
    expect(await passwordProblems('ramanujan loves primes 1729', owner)).toEqual(['The password must not contain your name, user name or e-mail address.']);
    expect(await passwordProblems('my SRINIVASA secret phrase', owner)).toEqual(['The password must not contain your name, user name or e-mail address.']);
    expect(await passwordProblems('Number-Theorist forever 77', owner)).toEqual(['The password must not contain your name, user name or e-mail address.']);
    expect(await passwordProblems('hardy.friend rides at dawn', owner)).toEqual(['The password must not contain your name, user name or e-mail address.']);
  });

  it('should refuse patterns that are easy to guess and say why', async () => {
    expect(await passwordProblems('aaaaaaaaaaaa', owner)).toEqual([
      `This password is too easy to guess. Repeated characters like "aaa" are easy to guess. Use a longer phrase of unrelated words.`,
    ]);
    expect(await passwordProblems('abcdefghijkl', owner)).toEqual([
      `This password is too easy to guess. Common character sequences like "abc" are easy to guess. Use a longer phrase of unrelated words.`,
    ]);
  });

  it('should judge a crafted 256-character password quickly when the route is public', async () => {
    await passwordProblems('warm the dictionaries up', owner);
    const started = performance.now();
    expect(await passwordProblems('Zq7#mK2!pLx9'.repeat(22).slice(0, 256), owner)).toEqual([]);
    expect(await passwordProblems('1234567890'.repeat(26).slice(0, 256), owner)).toEqual([
      `This password is too easy to guess. Repeated character patterns like "abcabcabc" are easy to guess. Use a longer phrase of unrelated words.`,
    ]);
    // Unbounded, these two took 3-4 s here; bounded they take about 0.2 s.
    expect(performance.now() - started).toBeLessThan(1500);
  });
});
