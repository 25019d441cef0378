/**
 * Copies text to the clipboard; where there is no clipboard API (a plain-HTTP studio on a LAN address) or it
 * refuses, selects `element`'s text instead so Ctrl/Cmd+C copies it. Resolves true when the text was copied.
 */
export async function copyText(text: string, element: HTMLElement | null): Promise<boolean> {
  const selectInstead = () => {
    const selection = window.getSelection();
    if (element !== null && selection !== null) selection.selectAllChildren(element);
    return false;
  };
  if (navigator.clipboard === undefined) return selectInstead();
  return navigator.clipboard.writeText(text).then(() => true, selectInstead);
}
