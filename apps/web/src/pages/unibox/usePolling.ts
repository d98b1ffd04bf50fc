import { useEffect } from 'react';

/** Every 10 s while the page is visible, and when it becomes visible again: `refresh` (a new read from the server). */
export function usePolling(refresh: () => void, everyMs = 10_000): void {
  useEffect(() => {
    const tick = () => {
      if (document.visibilityState === 'visible') refresh();
    };
    const timer = window.setInterval(tick, everyMs);
    document.addEventListener('visibilitychange', tick);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [refresh, everyMs]);
}
