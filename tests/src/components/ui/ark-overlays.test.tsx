import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Avatar, initialsOf } from '#src/components/ui/avatar.tsx';
import { ComboboxField, filterItems } from '#src/components/ui/combobox.tsx';
import { DateField, firstDayOfWeek } from '#src/components/ui/date-field.tsx';
import { InfoPopover } from '#src/components/ui/popover.tsx';
import { Sheet, SheetClose, SheetTitle } from '#src/components/ui/sheet.tsx';
import { i18n, initI18n } from '#src/i18n/i18n.ts';

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['ui']);
});

const wrap = (node: ReactNode) => {
  const user = userEvent.setup();
  const view = render(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);
  return { user, ...view };
};

describe('Avatar (Ark Avatar)', () => {
  it('should show initials in any script, hidden from assistive technology', () => {
    expect(initialsOf('Asha Rao')).toBe('AR');
    expect(initialsOf('asha.rao@example.test')).toBe('ar');
    expect(initialsOf('प्रिया शर्मा')).toBe('प्रिश');
    expect(initialsOf('   ')).toBe('?');
    // A Latin letter with a combining mark is one grapheme: not cut after the letter.
    expect(initialsOf('E\u0301mile Zola')).toBe('E\u0301Z');
    expect(initialsOf('Ana Ôz')).toBe('AÔ');
    expect(initialsOf('A')).toBe('A');
    render(<Avatar name="Asha Rao" />);
    const avatar = screen.getByTestId('avatar');
    expect(avatar).toHaveAttribute('aria-hidden', 'true');
    expect(avatar).toHaveTextContent('AR');
    // Nothing to load: plain initials, no Ark state machine; with a picture, Ark's avatar loads it.
    expect(avatar).not.toHaveAttribute('data-scope');
    cleanup();
    render(<Avatar name="Asha Rao" src="/photo.png" />);
    expect(screen.getByTestId('avatar')).toHaveAttribute('data-scope', 'avatar');
    expect(screen.getByTestId('avatar').querySelector('img')).toHaveAttribute('src', '/photo.png');
  });
});

describe('InfoPopover (Ark Popover)', () => {
  it('should open from its button with the keyboard, show a titled panel and close on Escape, focus back on the button', async () => {
    const { user } = wrap(
      <InfoPopover trigger="+2 more" triggerLabel="All 4 roles of asha" title="Roles of asha" closeLabel="Close">
        <p>Tester</p>
      </InfoPopover>,
    );
    const trigger = screen.getByRole('button', { name: 'All 4 roles of asha' });
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    trigger.focus();
    await user.keyboard('{Enter}');
    const panel = await screen.findByRole('dialog', { name: 'Roles of asha' });
    expect(within(panel).getByText('Tester')).toBeInTheDocument();
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    // Escape reaches the popover once it holds the focus (Ark moves it there a frame after opening).
    await waitFor(() => expect(panel.contains(document.activeElement)).toBe(true), { timeout: 5000 });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(trigger).toHaveFocus());
  });
});

describe('Sheet (Ark Dialog as a side sheet)', () => {
  it('should be a named modal that closes on Escape and by its close button', async () => {
    const onClose = vi.fn();
    const { user } = wrap(
      <Sheet id="sheet" side="end" width="300px" onClose={onClose} testId="sheet">
        <SheetTitle>Theme settings</SheetTitle>
        <SheetClose aria-label="Close settings">x</SheetClose>
      </Sheet>,
    );
    const sheet = await screen.findByRole('dialog', { name: 'Theme settings' });
    expect(sheet).toHaveAttribute('id', 'sheet');
    expect(sheet).toHaveAttribute('aria-modal', 'true');
    await user.click(within(sheet).getByRole('button', { name: 'Close settings' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });
});

function Languages({ onChosen }: { onChosen: (value: string | null) => void }) {
  const [text, setText] = useState('');
  const [value, setValue] = useState<string | null>(null);
  return (
    <ComboboxField
      label="Language"
      items={[
        { value: 'hi', label: 'Hindi', keywords: ['हिन्दी', 'hi'] },
        { value: 'gu', label: 'Gujarati', keywords: ['ગુજરાતી', 'gu'] },
        { value: 'fr', label: 'French', keywords: ['français', 'fr'] },
      ]}
      inputValue={text}
      onInputValueChange={setText}
      value={value}
      onValueChange={(next) => {
        setValue(next);
        onChosen(next);
      }}
    />
  );
}

describe('ComboboxField (Ark Combobox)', () => {
  it('should filter by name, own name or tag, ignoring case and accents', () => {
    const items = [
      { value: 'fr', label: 'French', keywords: ['français', 'fr'] },
      { value: 'hi', label: 'Hindi', keywords: ['हिन्दी', 'hi'] },
    ];
    expect(filterItems(items, 'FRANCAIS').map((i) => i.value)).toEqual(['fr']);
    expect(filterItems(items, 'हिन्').map((i) => i.value)).toEqual(['hi']);
    expect(filterItems(items, '  ').map((i) => i.value)).toEqual(['fr', 'hi']);
    expect(filterItems(items, 'xx')).toEqual([]);
  });

  it('should narrow the list as one types and choose with the arrow keys and Enter, showing the name', async () => {
    const onChosen = vi.fn();
    const { user } = wrap(<Languages onChosen={onChosen} />);
    const input = screen.getByRole('combobox', { name: 'Language' });
    await user.type(input, 'guj');
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Gujarati']);
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(onChosen).toHaveBeenLastCalledWith('gu'));
    expect(input).toHaveValue('Gujarati');
    // Typing again makes the text the user's own.
    await user.type(input, 'x');
    await waitFor(() => expect(onChosen).toHaveBeenLastCalledWith(null));
  });
});

describe('DateField (Ark DatePicker)', () => {
  it('should start the week where the locale does', () => {
    expect(firstDayOfWeek('en-US')).toBe(0);
    expect(firstDayOfWeek('fr')).toBe(1);
    expect(firstDayOfWeek('es')).toBe(1);
  });

  it('should take a typed date, show the calendar in the locale and pick a day with the keyboard', async () => {
    const onChange = vi.fn();
    function Birth() {
      const [value, setValue] = useState('1990-05-14');
      return (
        <DateField
          label="Date of birth"
          value={value}
          max="2026-11-25"
          onChange={(next) => {
            setValue(next);
            onChange(next);
          }}
        />
      );
    }
    const { user } = wrap(<Birth />);
    const input = screen.getByRole('textbox', { name: 'Date of birth' });
    await waitFor(() => expect(input).toHaveValue('05/14/1990'));
    await user.click(screen.getByRole('button', { name: 'Open the calendar' }));
    const grid = await screen.findByRole('grid');
    // en-US weeks start on Sunday.
    expect(grid.querySelector('th')).toHaveTextContent('S');
    expect(grid.querySelector('th')).toHaveAttribute('abbr', 'Sunday');
    expect(screen.getAllByText('May 1990').filter((el) => !el.closest('[hidden]'))).toHaveLength(1);
    await act(async () => {});
    await user.keyboard('{ArrowRight}{Enter}');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('1990-05-15'));
    await user.clear(input);
    await user.type(input, '1/2/2000{Enter}');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('2000-01-02'));
  });
});
