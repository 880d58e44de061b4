import { control, fieldLabel, fieldWrap } from './styles';

/** One labelled select of a list's GET filter form; the first option is the unfiltered one (value ''). */
export function FilterSelect({ id, name, label, value, options }: { id: string; name: string; label: string; value: string | undefined; options: { value: string; label: string }[] }) {
  return (
    <div className={fieldWrap}>
      <label htmlFor={id} className={fieldLabel}>{label}</label>
      <select id={id} className={`${control} h-10`} name={name} defaultValue={value ?? ''}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
