// What every page may need: who is signed in, the organization's brands, the brand in view.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Result } from './operation-types.ts';

export interface Me {
  email: string;
  /** The person's role in the current organization. */
  role: 'admin' | 'member' | null;
  /** The session's current organization; null for a person in none. */
  organization: { id: string; name: string } | null;
  /** Every organization the person belongs to, by name. */
  organizations: { id: string; name: string; role: 'admin' | 'member' }[];
}

/** A brand as list_brands gives it. */
export type Brand = Result<'brands'>[number];

export interface AppState {
  me: Me;
  brands: Brand[];
  /** The brand in view: the one in the address, else the one last picked, else the first. */
  brand: Brand | undefined;
  /** Reads the brands again (a page that renamed one), keeping the page in view meanwhile. */
  reloadBrands?: () => void;
}

export const AppContext = createContext<AppState | null>(null);

export function useApp(): AppState {
  const state = useContext(AppContext);
  if (!state) throw new Error('useApp outside the app');
  return state;
}

const REMEMBERED = 'answerscope.brand';

export function rememberBrand(id: string): void {
  try {
    localStorage.setItem(REMEMBERED, id);
  } catch {
    /* storage refused: the first brand is shown next time */
  }
}

export function rememberedBrand(): string | null {
  try {
    return localStorage.getItem(REMEMBERED);
  } catch {
    return null;
  }
}
