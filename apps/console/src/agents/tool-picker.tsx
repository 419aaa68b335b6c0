import { useState } from 'preact/hooks';

/**
 * Picks function names from the catalogue, searchable, and takes patterns (`delay_*`, `*`) typed
 * in: what `allowed_tools` and `needs_approval` hold.
 */
export function ToolPicker({
  id,
  label,
  catalogue,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  catalogue: string[];
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
}) {
  const [filter, setFilter] = useState('');
  const [pattern, setPattern] = useState('');
  const names = [...new Set([...value, ...catalogue])];
  const shown = names.filter((n) => n.includes(filter.trim().toLowerCase()));
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value, name] : value.filter((v) => v !== name));
  return (
    <fieldset class="tool-picker" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{label}</legend>
      <p class="muted">{value.length ? `Chosen: ${value.join(', ')}` : 'None chosen.'}</p>
      <label for={`${id}-filter`}>Search {label.toLowerCase()}</label>
      <input
        id={`${id}-filter`}
        type="search"
        value={filter}
        onInput={(e) => setFilter(e.currentTarget.value)}
      />
      <ul class="checks" aria-label={label}>
        {shown.map((name) => (
          <li key={name}>
            <label class="check">
              <input
                type="checkbox"
                checked={value.includes(name)}
                onChange={(e) => toggle(name, e.currentTarget.checked)}
              />{' '}
              {name}
            </label>
          </li>
        ))}
        {shown.length === 0 && <li class="muted">No function matches.</li>}
      </ul>
      <div class="row">
        <label for={`${id}-pattern`}>Pattern</label>
        <input
          id={`${id}-pattern`}
          placeholder="delay_* or *"
          value={pattern}
          onInput={(e) => setPattern(e.currentTarget.value)}
        />
        <button
          type="button"
          class="secondary"
          onClick={() => {
            const p = pattern.trim();
            if (p && !value.includes(p)) onChange([...value, p]);
            setPattern('');
          }}
        >
          Add pattern
        </button>
      </div>
      {error && (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
