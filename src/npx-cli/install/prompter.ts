/** The prompts the interactive install asks through: @clack/prompts, or a test's stand-in. */
export interface Choice<T> {
  value: T;
  label: string;
  hint?: string;
}

/** The subset of @clack/prompts the flow uses. */
export interface Prompter {
  intro(title: string): void;
  outro(message: string): void;
  cancel(message: string): void;
  note(message: string, title?: string): void;
  isCancel(value: unknown): value is symbol;
  multiselect<T>(opts: { message: string; options: Choice<T>[]; initialValues: T[]; required: boolean }): Promise<T[] | symbol>;
  select<T>(opts: { message: string; options: Choice<T>[]; initialValue?: T }): Promise<T | symbol>;
  spinner(): { start(msg?: string): void; stop(msg?: string): void };
  log: { info(m: string): void; success(m: string): void; warn(m: string): void; error(m: string): void; message(m: string): void };
}
