/**
 * The student's variant seed: `?student=N` in the URL (a teacher hands out numbers, or a
 * student shares a link), else the number this browser picked once and keeps in local
 * storage. 0 means the lesson's own numbers. Exercises pick their variant from it.
 */
import { useLocation } from './router';

const KEY = 'fawnlab.student';
const MAX = 999999;

function parse(text: string | null): number | null {
  if (text === null || !/^\d{1,6}$/.test(text.trim())) return null;
  return Number(text.trim());
}

function stored(): number {
  try {
    const have = parse(window.localStorage.getItem(KEY));
    if (have !== null) return have;
    const buf = new Uint32Array(1);
    window.crypto.getRandomValues(buf);
    const fresh = 1 + (buf[0]! % MAX);
    window.localStorage.setItem(KEY, String(fresh));
    return fresh;
  } catch {
    return 0;  // no storage (private mode): the lesson's own numbers
  }
}

/** The seed the page's exercises use. */
export function useStudentSeed(): number {
  const { search } = useLocation();
  return parse(new URLSearchParams(search).get('student')) ?? stored();
}
