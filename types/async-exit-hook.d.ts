// async-exit-hook ships no types; only what Vellum calls is declared.
declare module 'async-exit-hook' {
  interface ExitHook {
    (hook: (done?: () => void) => void): void;
    unhookEvent(event: string): void;
    hookedEvents(): string[];
  }
  const exitHook: ExitHook;
  export default exitHook;
}
