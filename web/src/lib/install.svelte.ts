// The installed app (docs/client.md, "The installed app"). The browser offers to install the page once it has
// its manifest and service worker (`vite.config.ts`): the offer arrives as `beforeinstallprompt`, which is kept
// so that Home's Install button can show it when the player asks. Installed, the app opens full screen and
// sideways (the manifest says so); `installed` is true there, and Home has no Install button.

/** The browser's install offer (Chromium's `BeforeInstallPromptEvent`, not in TypeScript's DOM types). */
type InstallOffer = Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }> };

export const install = $state<{ offer: InstallOffer | null; installed: boolean }>({
  offer: null,
  installed: typeof matchMedia === 'function' && matchMedia('(display-mode: fullscreen), (display-mode: standalone)').matches,
});

/** Listens for the browser's offer from the start (it may come before Home is shown). */
export function listenForInstall() {
  addEventListener('beforeinstallprompt', (e) => {
    // Ours to show, when the player presses Install: not the browser's own banner.
    e.preventDefault();
    install.offer = e as InstallOffer;
  });
  addEventListener('appinstalled', () => {
    install.offer = null;
    install.installed = true;
  });
}

/** Shows the browser's install dialog; the offer can be used once. */
export async function promptInstall() {
  const offer = install.offer;
  if (!offer) return;
  install.offer = null;
  await offer.prompt();
  if ((await offer.userChoice).outcome === 'accepted') install.installed = true;
}
