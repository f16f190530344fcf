/** The minor-unit digits of a currency (EUR 2, JPY 0, BHD 3); an unknown code: 2. */
export function digitsOf(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

/** Minor units as the currency writes them: 2500 EUR is "25.00 EUR". */
export function money(amount: number, currency: string): string {
  const digits = digitsOf(currency);
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  const whole = Math.floor(abs / 10 ** digits);
  const fraction = digits === 0 ? '' : `.${String(abs % 10 ** digits).padStart(digits, '0')}`;
  return `${sign}${whole.toLocaleString('en')}${fraction} ${currency}`;
}

/** An ISO instant, shorter: "2026-12-02 17:05:09Z". */
export function when(iso: string | undefined): string {
  if (!iso) return '—';
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** Seconds as an age: "42 s", "3 min 5 s", "2 h 7 min", "3 d 4 h". */
export function age(seconds: number | undefined): string {
  if (seconds === undefined) return '—';
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
}
