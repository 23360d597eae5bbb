/** A confirmation in the page's own dialog (keyboard: Tab between the buttons, Escape cancels). */
export function confirmAction(text: string): Promise<boolean> {
  const dialog = document.getElementById('confirm') as HTMLDialogElement;
  (document.getElementById('confirm-text') as HTMLElement).textContent = text;
  const ok = document.getElementById('confirm-ok') as HTMLButtonElement;
  const cancel = document.getElementById('confirm-cancel') as HTMLButtonElement;
  return new Promise((resolve) => {
    const finish = (v: boolean) => {
      ok.onclick = null;
      cancel.onclick = null;
      dialog.onclose = null;
      if (dialog.open) dialog.close();
      resolve(v);
    };
    ok.onclick = () => finish(true);
    cancel.onclick = () => finish(false);
    dialog.onclose = () => finish(false);
    dialog.showModal();
    cancel.focus();
  });
}
