import { useEffect, useRef } from 'preact/hooks';

/**
 * Calls `follow` whenever the address's hash changes while the page is open, and once when the
 * page has mounted: the hash may have changed between the first render and the effect that
 * starts listening (a link opened while the console was still starting), and that change
 * fires no event the page could still hear.
 */
export function useFollowHash(follow: () => void): void {
  const latest = useRef(follow);
  latest.current = follow;
  useEffect(() => {
    const onChange = () => latest.current();
    onChange();
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
}
