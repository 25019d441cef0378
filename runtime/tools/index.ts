/** Public surface of the tools layer: define tools, collect them in a registry, dispatch a round of calls. */
export { BUILTIN_TOOL_NAMES, BUILTIN_TOOLS } from "./builtins";
export { defineTool, TOOL_NAME_PATTERN, type ToolDefinition } from "./define-tool";
export { dispatchToolCalls, type DispatchOptions } from "./dispatch";
export type { EffectCall, EffectHooks } from "./effects";
export { toModelJsonSchema } from "./json-schema";
export { CommandRule, commandDenial, policyDenial, simpleCommands, ToolPolicy, type CallCounter } from "./policy";
export { ToolRegistry, type BuiltinSelection } from "./registry";
export { failureContent, successContent } from "./result-content";
export { ToolFailure, type Tool, type ToolContext } from "./types";
