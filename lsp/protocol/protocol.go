// Package protocol is the hand-written subset of the Language Server Protocol
// (3.17) that the fuzzbox sidecar speaks: lifecycle, text synchronization,
// code lenses, hover, diagnostics, code actions, commands, work-done progress
// and the window messages. The sidecar (package lsp) and its tests use it; it
// imports only the standard library, so it is part of the contract with the
// editors (editors/vscode) together with package command.
//
// Positions are zero-based lines and UTF-16 code-unit columns, as the
// protocol says; the sidecar converts from Go's byte offsets (see lsp/mapper.go).
package protocol

import "encoding/json"

// Error codes of JSON-RPC and the LSP.
const (
	CodeParseError           = -32700
	CodeInvalidRequest       = -32600
	CodeMethodNotFound       = -32601
	CodeInvalidParams        = -32602
	CodeInternalError        = -32603
	CodeServerNotInitialized = -32002
	CodeRequestCancelled     = -32800
)

// DocumentURI is a file:// URI.
type DocumentURI string

type Position struct {
	Line      uint32 `json:"line"`      // zero-based
	Character uint32 `json:"character"` // zero-based, UTF-16 code units
}

type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

type Location struct {
	URI   DocumentURI `json:"uri"`
	Range Range       `json:"range"`
}

type TextDocumentIdentifier struct {
	URI DocumentURI `json:"uri"`
}

type TextDocumentItem struct {
	URI        DocumentURI `json:"uri"`
	LanguageID string      `json:"languageId"`
	Version    int32       `json:"version"`
	Text       string      `json:"text"`
}

type VersionedTextDocumentIdentifier struct {
	URI     DocumentURI `json:"uri"`
	Version int32       `json:"version"`
}

type DidOpenTextDocumentParams struct {
	TextDocument TextDocumentItem `json:"textDocument"`
}

// TextDocumentContentChangeEvent is a change of a document: its whole text
// (the sidecar asks for TextDocumentSyncKindFull), or with Range that range
// replaced (clients in proxy mode, where gopls's incremental kind is
// announced, and clients that send incremental changes anyway).
type TextDocumentContentChangeEvent struct {
	Range *Range `json:"range,omitempty"` // the range replaced; nil: the whole text
	Text  string `json:"text"`
}

type DidChangeTextDocumentParams struct {
	TextDocument   VersionedTextDocumentIdentifier  `json:"textDocument"`
	ContentChanges []TextDocumentContentChangeEvent `json:"contentChanges"`
}

type DidSaveTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Text         *string                `json:"text,omitempty"`
}

type DidCloseTextDocumentParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

type TextDocumentPositionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

type WorkspaceFolder struct {
	URI  DocumentURI `json:"uri"`
	Name string      `json:"name"`
}

type ClientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type InitializeParams struct {
	ProcessID        *int              `json:"processId"`
	ClientInfo       *ClientInfo       `json:"clientInfo,omitempty"`
	RootURI          DocumentURI       `json:"rootUri,omitempty"`
	RootPath         string            `json:"rootPath,omitempty"`
	WorkspaceFolders []WorkspaceFolder `json:"workspaceFolders,omitempty"`
	// Capabilities is kept raw: the sidecar reads only a few flags
	// (window.workDoneProgress, window.showDocument) and the proxy passes it on.
	Capabilities          json.RawMessage `json:"capabilities,omitempty"`
	InitializationOptions json.RawMessage `json:"initializationOptions,omitempty"`
}

// ClientCapabilities is the part of the client's capabilities the sidecar reads.
type ClientCapabilities struct {
	Window struct {
		WorkDoneProgress bool `json:"workDoneProgress"`
		ShowDocument     *struct {
			Support bool `json:"support"`
		} `json:"showDocument"`
	} `json:"window"`
}

type TextDocumentSyncOptions struct {
	OpenClose bool         `json:"openClose"`
	Change    int          `json:"change"` // TextDocumentSyncKind
	Save      *SaveOptions `json:"save,omitempty"`
}

// Text document sync kinds.
const (
	SyncNone = 0
	SyncFull = 1
)

type SaveOptions struct {
	IncludeText bool `json:"includeText"`
}

type CodeLensOptions struct {
	ResolveProvider bool `json:"resolveProvider"`
}

type ExecuteCommandOptions struct {
	Commands []string `json:"commands"`
}

type CodeActionOptions struct {
	CodeActionKinds []string `json:"codeActionKinds,omitempty"`
}

type ServerCapabilities struct {
	TextDocumentSync       TextDocumentSyncOptions `json:"textDocumentSync"`
	CodeLensProvider       *CodeLensOptions        `json:"codeLensProvider,omitempty"`
	HoverProvider          bool                    `json:"hoverProvider,omitempty"`
	CodeActionProvider     *CodeActionOptions      `json:"codeActionProvider,omitempty"`
	ExecuteCommandProvider *ExecuteCommandOptions  `json:"executeCommandProvider,omitempty"`
}

type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

type InitializeResult struct {
	Capabilities ServerCapabilities `json:"capabilities"`
	ServerInfo   *ServerInfo        `json:"serverInfo,omitempty"`
}

type Command struct {
	Title     string            `json:"title"`
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments,omitempty"`
}

type CodeLens struct {
	Range   Range    `json:"range"`
	Command *Command `json:"command,omitempty"`
}

type CodeLensParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
}

type ExecuteCommandParams struct {
	Command   string            `json:"command"`
	Arguments []json.RawMessage `json:"arguments,omitempty"`
	// WorkDoneToken, when the client sets it, is the token to report the
	// command's progress with.
	WorkDoneToken *ProgressToken `json:"workDoneToken,omitempty"`
}

type MarkupContent struct {
	Kind  string `json:"kind"` // "markdown" or "plaintext"
	Value string `json:"value"`
}

type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// Diagnostic severities.
const (
	SeverityError       = 1
	SeverityWarning     = 2
	SeverityInformation = 3
	SeverityHint        = 4
)

type Diagnostic struct {
	Range    Range  `json:"range"`
	Severity int    `json:"severity,omitempty"`
	Code     string `json:"code,omitempty"`
	Source   string `json:"source,omitempty"`
	Message  string `json:"message"`
	// Data carries what the code action request needs back (the sidecar's
	// fix index); clients return it untouched.
	Data json.RawMessage `json:"data,omitempty"`
}

type PublishDiagnosticsParams struct {
	URI         DocumentURI  `json:"uri"`
	Version     *int32       `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

type WorkspaceEdit struct {
	Changes map[DocumentURI][]TextEdit `json:"changes,omitempty"`
}

type CodeActionContext struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	Only        []string     `json:"only,omitempty"`
}

type CodeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      CodeActionContext      `json:"context"`
}

// QuickFix is the code action kind of suggested fixes.
const QuickFix = "quickfix"

type CodeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind,omitempty"`
	Diagnostics []Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *WorkspaceEdit `json:"edit,omitempty"`
}

// ProgressToken is a string or an integer; the sidecar creates string tokens
// and passes client-made ones through.
type ProgressToken = json.RawMessage

type WorkDoneProgressCreateParams struct {
	Token ProgressToken `json:"token"`
}

type WorkDoneProgressCancelParams struct {
	Token ProgressToken `json:"token"`
}

type ProgressParams struct {
	Token ProgressToken `json:"token"`
	Value any           `json:"value"`
}

// WorkDoneProgress is the value of a $/progress notification; Kind is
// "begin", "report" or "end".
type WorkDoneProgress struct {
	Kind        string `json:"kind"`
	Title       string `json:"title,omitempty"`       // begin
	Cancellable bool   `json:"cancellable,omitempty"` // begin, report
	Message     string `json:"message,omitempty"`
	Percentage  *int   `json:"percentage,omitempty"`
}

// Message types of window/showMessage and window/logMessage.
const (
	MessageError   = 1
	MessageWarning = 2
	MessageInfo    = 3
	MessageLog     = 4
)

type ShowMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

type LogMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

type ShowDocumentParams struct {
	URI       DocumentURI `json:"uri"`
	External  bool        `json:"external,omitempty"`
	TakeFocus bool        `json:"takeFocus,omitempty"`
	Selection *Range      `json:"selection,omitempty"`
}

type ShowDocumentResult struct {
	Success bool `json:"success"`
}
