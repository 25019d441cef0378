"use client";
/**
 * The first-run form: the studio's first account (email, name, password twice). Each field's problem is shown
 * under it before anything is sent; the server's refusal (say, another tab made the account first) under the
 * form. On success the person is signed in and the home page loads.
 */
import { UserPlus } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Button } from "../ui/button";
import { Field, fieldDescribedBy, inputClasses } from "../ui/field";
import { postJson } from "./post-json";

const MIN_PASSWORD = 8;

type FieldName = "email" | "name" | "password" | "confirm";

function problemsOf(values: Record<FieldName, string>): Partial<Record<FieldName, string>> {
  const problems: Partial<Record<FieldName, string>> = {};
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email.trim())) problems.email = "Enter an email address, like ada@example.com.";
  if (values.name.trim() === "") problems.name = "Enter the name the studio shows for you.";
  if (values.password.length < MIN_PASSWORD) problems.password = `Use at least ${MIN_PASSWORD} characters.`;
  else if (values.confirm !== values.password) problems.confirm = "The two passwords differ.";
  return problems;
}

/** The first-run account form. */
export function SetupForm() {
  const [values, setValues] = useState<Record<FieldName, string>>({ email: "", name: "", password: "", confirm: "" });
  const [problems, setProblems] = useState<Partial<Record<FieldName, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const found = problemsOf(values);
    setProblems(found);
    setError(null);
    const first = (Object.keys(found) as FieldName[])[0];
    if (first !== undefined) {
      document.getElementById(`setup-${first}`)?.focus();
      return;
    }
    setPending(true);
    const refusal = await postJson("/api/auth/setup", { email: values.email, name: values.name, password: values.password });
    if (refusal === null) {
      window.location.assign("/");
      return;
    }
    setPending(false);
    setError(refusal);
  }

  const field = (name: FieldName, label: string, type: string, autoComplete: string, hint?: string) => (
    <Field id={`setup-${name}`} label={label} hint={hint} error={problems[name] ?? null}>
      <input
        id={`setup-${name}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        value={values[name]}
        onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
        className={inputClasses(problems[name] !== undefined)}
        aria-invalid={problems[name] !== undefined}
        aria-describedby={fieldDescribedBy(`setup-${name}`, hint !== undefined, problems[name] !== undefined)}
        data-testid={`setup-${name}`}
      />
    </Field>
  );

  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void submit(event)} noValidate data-testid="setup-form">
      {field("email", "Email", "email", "username")}
      {field("name", "Name", "text", "name")}
      {field("password", "Password", "password", "new-password", `At least ${MIN_PASSWORD} characters.`)}
      {field("confirm", "Password again", "password", "new-password")}
      {error ? (
        <p role="alert" className="rounded-md border border-status-failed/40 bg-status-failed/5 px-3 py-2 text-sm break-words text-status-failed" data-testid="setup-error">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="primary" icon={UserPlus} disabled={pending} data-testid="setup-submit">
        {pending ? "Creating…" : "Create account and sign in"}
      </Button>
    </form>
  );
}
