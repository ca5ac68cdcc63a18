// Loaded first by every smoke page (a classic script, so it runs before the bundle): records what a user would see
// as an error — uncaught errors, unhandled rejections, console.error, CSP violations — for the runner to assert on.
(() => {
  const errors = [];
  const text = (value) =>
    value instanceof Error || (value && typeof value === 'object' && 'message' in value)
      ? `${value.name}: ${value.message}${value.stack ? ` @ ${String(value.stack).split('\n').slice(0, 3).join(' | ')}` : ''}`
      : String(value);
  window.addEventListener('error', (e) => errors.push(`error: ${e.message} (${e.filename}:${e.lineno})`));
  window.addEventListener('unhandledrejection', (e) => errors.push(`unhandled rejection: ${text(e.reason)}`));
  document.addEventListener('securitypolicyviolation', (e) =>
    errors.push(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
  );
  const original = console.error.bind(console);
  console.error = (...args) => {
    errors.push(`console.error: ${args.map(text).join(' ')}`);
    original(...args);
  };
  window.__smokeErrors = errors;
})();
