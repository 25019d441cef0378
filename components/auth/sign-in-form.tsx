"use client";
/**
 * Email and password sign-in. Posts to /api/auth/sign-in; on success loads `next` (a full load, so every server
 * component renders for the signed-in person); a refusal is shown under the form, the password cleared and focused.
 */
import { LogIn } from "lucide-react";
import { useRef, useState, type FormEvent } from "react";
import { Button } from "../ui/button";
import { Field, fieldDescribedBy, inputClasses } from "../ui/field";
import { postJson } from "./post-json";

/** Props: where to go after signing in. */
export interface SignInFormProps {
  next: string;
}

/** The sign-in form. */
export function SignInForm({ next }: SignInFormProps) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const passwordInput = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    setPending(true);
    setError(null);
    const refusal = await postJson("/api/auth/sign-in", { email, password });
    if (refusal === null) {
      window.location.assign(next);
      return;
    }
    setPending(false);
    setError(refusal);
    setPassword("");
    passwordInput.current?.focus();
  }

  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void submit(event)} noValidate data-testid="sign-in-form" aria-describedby={error ? "sign-in-error" : undefined}>
      <Field id="sign-in-email" label="Email">
        <input
          id="sign-in-email"
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          className={inputClasses(error !== null)}
          aria-invalid={error !== null}
          aria-describedby={fieldDescribedBy("sign-in-email", false, false)}
          data-testid="sign-in-email"
        />
      </Field>
      <Field id="sign-in-password" label="Password">
        <input
          id="sign-in-password"
          ref={passwordInput}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          className={inputClasses(error !== null)}
          aria-invalid={error !== null}
          data-testid="sign-in-password"
        />
      </Field>
      {error ? (
        <p id="sign-in-error" role="alert" className="rounded-md border border-status-failed/40 bg-status-failed/5 px-3 py-2 text-sm break-words text-status-failed" data-testid="sign-in-error">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="primary" icon={LogIn} disabled={pending || email.trim() === "" || password === ""} data-testid="sign-in-submit">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
