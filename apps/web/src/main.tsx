import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Provider as UrqlProvider } from 'urql';
import { Alert, Badge, MantineProvider, Menu, Notification, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { client } from './graphql/client';
import { SessionProvider } from './session';
import { App, preloadScreen } from './App';

// System fonts only (Mantine's default stack): nothing is loaded from elsewhere. Shade 8 and a
// darker "dimmed" keep text at WCAG AA contrast (axe: no serious or critical violation).
const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  // People who ask their system for less motion get no transitions (notifications appear at once).
  respectReducedMotion: true,
  components: {
    // Light badges (statuses) keep their tinted background with dark text: Mantine's coloured text on
    // its own tint is under 4.5:1 for small type (green on green is 3.1:1).
    Badge: Badge.extend({ vars: (_theme, props) => (props.variant === 'light' ? { root: { '--badge-color': 'var(--mantine-color-dark-9)' } } : { root: {} }) }),
    // The same for light alerts' titles (red on its tint is 3.9:1).
    Alert: Alert.extend({ vars: (_theme, props) => (!props.variant || props.variant === 'light' ? { root: { '--alert-color': 'var(--mantine-color-dark-9)' } } : { root: {} }) }),
    // A notification's text under its title is gray 6 (3.3:1 on white); gray 7 is 7.7:1.
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss the message' } }, styles: { description: { color: 'var(--mantine-color-gray-7)' } } }),
    // An open menu holds menu items only (axe: aria-required-children); the focus goes to the first item.
    Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
  },
});
const contrast: CSSVariablesResolver = () => ({ variables: {}, light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-8)' }, dark: {} });

preloadScreen(window.location.pathname, client);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={contrast}>
      <Notifications position="top-right" />
      <UrqlProvider value={client}>
        <BrowserRouter>
          <SessionProvider>
            <App />
          </SessionProvider>
        </BrowserRouter>
      </UrqlProvider>
    </MantineProvider>
  </StrictMode>,
);
