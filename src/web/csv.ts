// CSV as RFC 4180 writes it (CRLF line ends; a field holding a comma, quote or line break is quoted,
// its quotes doubled), with text cells neutralised against spreadsheet formula injection: a text
// starting with =, +, -, @, tab or carriage return gets a leading apostrophe, so a spreadsheet shows
// it and never runs it. Numbers are written as they are (a negative change stays a number).

export type CsvValue = string | number | boolean | null | undefined;

function field(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: CsvValue[][]): string {
  return `${[header, ...rows].map((r) => r.map(field).join(',')).join('\r\n')}\r\n`;
}

/** Hands the text to the browser as a file download. */
export function downloadText(name: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
