import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ComboboxField } from '#src/components/ui/combobox.tsx';
import { FileUpload } from '#src/components/ui/file-upload.tsx';
import { Pagination } from '#src/components/ui/pagination.tsx';
import { ProgressBar } from '#src/components/ui/progress.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { i18n, initI18n } from '#src/i18n/i18n.ts';
import { chooseOption } from '#tests/src/support/select.ts';

beforeAll(async () => {
  await initI18n('en-US');
  await i18n.loadNamespaces(['ui']);
});

const wrap = (node: ReactNode) => {
  const user = userEvent.setup();
  render(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);
  return user;
};

const fruits = [
  { value: 'a', label: 'Apple' },
  { value: 'b', label: 'Banana' },
  { value: 'c', label: 'Cherry', disabled: true },
];

function ControlledSelect({ onValue, placeholder }: { onValue: (value: string) => void; placeholder?: string }) {
  const [value, setValue] = useState('');
  return (
    <SelectField
      label="Fruit"
      hint="Pick one"
      value={value}
      placeholder={placeholder}
      options={fruits}
      onValueChange={(next) => {
        setValue(next);
        onValue(next);
      }}
    />
  );
}

describe('SelectField (Ark Select)', () => {
  it('should open with the keyboard, choose an option, show it and go back to "none"', async () => {
    const onValue = vi.fn();
    const user = wrap(<ControlledSelect onValue={onValue} placeholder="Any" />);
    const trigger = screen.getByRole('combobox', { name: 'Fruit' });
    expect(trigger).toHaveTextContent('Any');
    expect(trigger).toHaveAccessibleDescription('Pick one');
    await chooseOption(user, trigger, 'Banana');
    expect(onValue).toHaveBeenLastCalledWith('b');
    expect(trigger).toHaveTextContent('Banana');
    await waitFor(() => expect(trigger).toHaveFocus());
    await chooseOption(user, trigger, 'Any');
    expect(onValue).toHaveBeenLastCalledWith('');
    expect(trigger).toHaveTextContent('Any');
  });

  it('should close on Escape without changing the value, and mark a disabled option', async () => {
    const onValue = vi.fn();
    const user = wrap(<ControlledSelect onValue={onValue} />);
    const trigger = screen.getByRole('combobox', { name: 'Fruit' });
    expect(trigger).toHaveTextContent('Choose…');
    trigger.focus();
    await user.keyboard('{ArrowDown}');
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getByRole('option', { name: 'Cherry' })).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect(onValue).not.toHaveBeenCalled();
  });

  it('should show its errors and say it is invalid', () => {
    wrap(<SelectField label="Fruit" value="a" options={fruits} onValueChange={() => {}} error={['Not in season.']} required />);
    const trigger = screen.getByRole('combobox', { name: /Fruit/ });
    expect(trigger).toHaveAttribute('aria-invalid', 'true');
    expect(trigger).toHaveAccessibleDescription('Not in season.');
    expect(trigger).toHaveTextContent('Apple');
  });
});

describe('Pagination (Ark Pagination)', () => {
  it('should show the range, mark the current page and move by number, next and previous', async () => {
    const onPage = vi.fn();
    const user = wrap(<Pagination page={2} pageSize={10} totalCount={95} totalPages={10} onPage={onPage} />);
    const nav = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(nav).getByText('11–20 of 95')).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Page 2 of 10' })).toHaveAttribute('aria-current', 'page');
    await user.click(within(nav).getByRole('button', { name: 'Page 3 of 10' }));
    expect(onPage).toHaveBeenLastCalledWith(3);
    await user.click(within(nav).getByRole('button', { name: 'Next' }));
    expect(onPage).toHaveBeenLastCalledWith(3);
    await user.click(within(nav).getByRole('button', { name: 'Previous' }));
    expect(onPage).toHaveBeenLastCalledWith(1);
    // The last page is always offered, with a gap before it.
    expect(within(nav).getByRole('button', { name: 'Page 10 of 10' })).toBeInTheDocument();
  });

  it('should disable previous on the first page and everything while busy, and change the page size', async () => {
    const onPage = vi.fn();
    const onPageSize = vi.fn();
    const { rerender } = render(
      <I18nextProvider i18n={i18n}>
        <Pagination page={1} pageSize={10} totalCount={30} totalPages={3} onPage={onPage} onPageSize={onPageSize} />
      </I18nextProvider>,
    );
    const user = userEvent.setup();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await chooseOption(user, await screen.findByRole('combobox', { name: 'Rows per page' }), '25');
    expect(onPageSize).toHaveBeenCalledWith(25);
    rerender(
      <I18nextProvider i18n={i18n}>
        <Pagination page={1} pageSize={10} totalCount={30} totalPages={3} onPage={onPage} onPageSize={onPageSize} disabled />
      </I18nextProvider>,
    );
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Page 2 of 3' })).toBeDisabled();
  });
});

function ControlledUpload({ maxFiles, maxBytes }: { maxFiles: number; maxBytes?: number }) {
  const [files, setFiles] = useState<File[]>([]);
  return <FileUpload label="Documents" hint="PDF or images" files={files} onChange={setFiles} maxFiles={maxFiles} maxBytes={maxBytes} />;
}

describe('FileUpload (Ark FileUpload)', () => {
  it('should list chosen files with their size and remove one by its button', async () => {
    const user = wrap(<ControlledUpload maxFiles={3} />);
    expect(screen.getByRole('button', { name: 'Choose files' })).toBeInTheDocument();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(input, [new File(['hello'], 'a.txt', { type: 'text/plain' }), new File([new Uint8Array(2048)], 'b.pdf', { type: 'application/pdf' })]);
    expect(await screen.findByText('a.txt')).toBeInTheDocument();
    expect(screen.getByText('2 KB')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove a.txt' }));
    await waitFor(() => expect(screen.queryByText('a.txt')).toBeNull());
    expect(screen.getByText('b.pdf')).toBeInTheDocument();
  });

  it('should refuse a file over the size limit and too many files, saying why', async () => {
    const user = wrap(<ControlledUpload maxFiles={1} maxBytes={1024} />);
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(input, new File([new Uint8Array(4096)], 'big.pdf'));
    expect(await screen.findByRole('alert')).toHaveTextContent('big.pdf is larger than 1 KB.');
    expect(screen.queryByText('big.pdf', { selector: '[data-part="item-name"]' })).toBeNull();
    await user.upload(input, new File(['x'], 'small.txt'));
    expect(await screen.findByText('small.txt')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('ProgressBar (Ark Progress)', () => {
  it('should be a named progressbar with its value, or indeterminate without one', () => {
    const { rerender } = render(<ProgressBar label="Uploading" value={40} />);
    const bar = screen.getByRole('progressbar', { name: 'Uploading' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(bar).toHaveAttribute('aria-valuemax', '100');
    expect(screen.getByText('40%')).toBeInTheDocument();
    rerender(<ProgressBar label="Uploading" value={null} />);
    expect(screen.getByRole('progressbar', { name: 'Uploading' })).not.toHaveAttribute('aria-valuenow');
    rerender(<ProgressBar label="Rows" value={3} max={12} />);
    expect(screen.getByRole('progressbar', { name: 'Rows' })).toHaveAttribute('aria-valuenow', '3');
    expect(screen.getByText('25%')).toBeInTheDocument();
  });
});

describe('ComboboxField', () => {
  /** A server-filtered field as the grant dialog has it: the caller searches on what was typed. */
  function ServerCombobox({ onTyped, autoFocus }: { onTyped: (text: string) => void; autoFocus?: boolean }) {
    const [text, setText] = useState('');
    const [value, setValue] = useState<string | null>(null);
    return (
      <ComboboxField
        label="User"
        items={text ? [{ value: 'v', label: 'Vikram Rao' }] : []}
        filtering="server"
        allowCustomValue={false}
        inputValue={text}
        onInputValueChange={(next, typed) => {
          setText(next);
          if (typed) onTyped(next);
        }}
        value={value}
        onValueChange={setValue}
        autoFocus={autoFocus}
      />
    );
  }

  it('should take typing in a field focused on its first render (as in a dialog) as the user typing', async () => {
    const typed = vi.fn();
    const user = wrap(<ServerCombobox onTyped={typed} autoFocus />);
    const input = screen.getByRole('combobox', { name: 'User' });
    await waitFor(() => expect(document.activeElement).toBe(input));
    // Typing without a click first: the keys go to the field that already has the focus.
    await user.keyboard('vik');
    expect(typed).toHaveBeenLastCalledWith('vik');
    await screen.findByRole('option', { name: 'Vikram Rao' });
  });
});
