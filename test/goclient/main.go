// A client nobody on this project wrote: the official MCP Go SDK, driven the way a Go
// program would use it against woodpecker-ci-mcp. test/e2e/go-sdk-client.test.ts builds
// and runs it against the harness; bench/figures/goSdk.ts times its connects.
//
// Each leg (stdio, HTTP on 2025-11-25, HTTP on 2026-07-28) connects, lists the tools,
// resolves every input schema with the SDK's own JSON Schema package and validates
// arguments against each of them (one sample built from each schema's required fields,
// and the numbers and "latest" a Go caller sends), calls a read tool, and answers a
// dialog twice (decline, then accept) on the secret named for that leg. On 2025 HTTP it
// also drops the listening stream and checks the SDK reopens it and the session lives on.
//
// It prints one JSON line per check, {"leg", "check", "ok", "detail", "ms"}, and exits 0
// when it could run at all: the test reads the lines and names every check that failed.
// A connect or a reopen gives up after waitLimit; the test runs the server with a
// keep-alive longer than that, so a stream that waits for its first event fails here.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type line struct {
	Leg    string  `json:"leg"`
	Check  string  `json:"check"`
	OK     bool    `json:"ok"`
	Detail string  `json:"detail,omitempty"`
	Ms     float64 `json:"ms,omitempty"`
}

func report(leg, check string, ok bool, ms float64, format string, args ...any) {
	out, _ := json.Marshal(line{Leg: leg, Check: check, OK: ok, Detail: fmt.Sprintf(format, args...), Ms: ms})
	fmt.Println(string(out))
}

// waitLimit bounds a connect and a reopen: far above what either takes (under a second),
// below the minute-long keep-alive the e2e test gives the server.
const waitLimit = 45 * time.Second

func since(start time.Time) float64 { return float64(time.Since(start).Microseconds()) / 1000 }

type options struct {
	stdioCommand string
	stdioDir     string
	httpURL      string
	repoID       int
	secrets      map[string]string
	tools        int
	connects     int
}

func main() {
	var o options
	var secrets string
	flag.StringVar(&o.stdioCommand, "stdio", "", "command line that starts the server over stdio (space-separated)")
	flag.StringVar(&o.stdioDir, "dir", "", "working directory of the stdio server")
	flag.StringVar(&o.httpURL, "http", "", "the server's Streamable HTTP endpoint")
	flag.IntVar(&o.repoID, "repo", 0, "repository whose secrets the dialogs delete")
	flag.StringVar(&secrets, "secrets", "", "leg=secret,... one secret per leg for the dialog checks")
	flag.IntVar(&o.tools, "tools", 0, "how many tools the list must hold")
	flag.IntVar(&o.connects, "connects", 0, "bench: only time this many connects per leg")
	flag.Parse()
	o.secrets = map[string]string{}
	for _, pair := range strings.Split(secrets, ",") {
		if leg, name, ok := strings.Cut(pair, "="); ok {
			o.secrets[leg] = name
		}
	}
	legs := []struct {
		name    string
		version string
		http    bool
	}{
		{"stdio", "", false},
		{"http-2025-11-25", "2025-11-25", true},
		{"http-2026-07-28", "2026-07-28", true},
	}
	for _, leg := range legs {
		if (leg.http && o.httpURL == "") || (!leg.http && o.stdioCommand == "") {
			continue
		}
		if o.connects > 0 {
			benchConnects(o, leg.name, leg.version, leg.http)
			continue
		}
		runLeg(o, leg.name, leg.version, leg.http)
	}
}

// getStreams wraps the HTTP client: it counts listening streams (GET) as they open, and
// can cut the open one as a NAT or proxy would, silently: the SDK's read ends, but the
// connection stays open, so the server sees nothing and still holds the old stream when
// the SDK asks for a new one.
type getStreams struct {
	mu      sync.Mutex
	opened  []int // status of each GET answered
	current *silentBody
	cut     []io.ReadCloser // bodies of cut streams, left open until the leg ends
	changed chan struct{}
}

// silentBody hands the SDK what the server sends through a pipe that cut() breaks
// while the server's connection stays open.
type silentBody struct {
	*io.PipeReader
	writer *io.PipeWriter
	real   io.ReadCloser
	cut    atomic.Bool
}

func newSilentBody(real io.ReadCloser) *silentBody {
	reader, writer := io.Pipe()
	go func() {
		_, err := io.Copy(writer, real)
		writer.CloseWithError(err)
	}()
	return &silentBody{PipeReader: reader, writer: writer, real: real}
}

// Close is the SDK's: after a cut it leaves the connection open (closeCut closes it).
func (b *silentBody) Close() error {
	b.PipeReader.Close()
	if b.cut.Load() {
		return nil
	}
	return b.real.Close()
}

func (g *getStreams) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || req.Method != http.MethodGet {
		return resp, err
	}
	body := newSilentBody(resp.Body)
	resp.Body = body
	g.mu.Lock()
	g.opened = append(g.opened, resp.StatusCode)
	g.current = body
	g.mu.Unlock()
	select {
	case g.changed <- struct{}{}:
	default:
	}
	return resp, nil
}

// drop cuts the open listening stream on the SDK's side only.
func (g *getStreams) drop() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.current == nil {
		return false
	}
	g.current.cut.Store(true)
	g.current.writer.CloseWithError(io.ErrUnexpectedEOF)
	g.cut = append(g.cut, g.current.real)
	g.current = nil
	return true
}

// closeCut closes the connections of the streams drop cut.
func (g *getStreams) closeCut() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, body := range g.cut {
		body.Close()
	}
	g.cut = nil
}

func (g *getStreams) statuses() []int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]int(nil), g.opened...)
}

func transportFor(o options, version string, useHTTP bool, streams *getStreams) mcp.Transport {
	if useHTTP {
		return &mcp.StreamableClientTransport{
			Endpoint:   o.httpURL,
			HTTPClient: &http.Client{Transport: streams},
			MaxRetries: 2,
		}
	}
	words := strings.Fields(o.stdioCommand)
	cmd := exec.Command(words[0], words[1:]...)
	cmd.Dir = o.stdioDir
	cmd.Stderr = os.Stderr
	return &mcp.CommandTransport{Command: cmd}
}

// answer is what the person says to the next dialog: "decline" or "accept".
type person struct {
	mu      sync.Mutex
	answer  string
	dialogs int
}

func (p *person) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dialogs++
	if p.answer == "accept" {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approve": true}}, nil
	}
	return &mcp.ElicitResult{Action: "decline"}, nil
}

func connect(ctx context.Context, o options, version string, useHTTP bool, p *person, streams *getStreams) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "go-sdk-check", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: p.handle,
	})
	return client.Connect(ctx, transportFor(o, version, useHTTP, streams), &mcp.ClientSessionOptions{ProtocolVersion: version})
}

func runLeg(o options, leg, version string, useHTTP bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	p := &person{}
	streams := &getStreams{changed: make(chan struct{}, 4)}
	start := time.Now()
	connecting, connected := context.WithTimeout(ctx, waitLimit)
	session, err := connect(connecting, o, version, useHTTP, p, streams)
	connected()
	if err != nil {
		report(leg, "connect", false, since(start), "%v", err)
		return
	}
	defer session.Close()
	negotiated := session.InitializeResult().ProtocolVersion
	report(leg, "connect", version == "" || negotiated == version, since(start), "negotiated %s", negotiated)

	listAndValidate(ctx, session, leg, o.tools)
	callRead(ctx, session, leg)
	if secret := o.secrets[leg]; secret != "" {
		answerDialogs(ctx, session, leg, p, o.repoID, secret)
	}
	if useHTTP && version == "2025-11-25" {
		reopenListeningStream(ctx, session, leg, streams)
		streams.closeCut()
	}
}

func listAndValidate(ctx context.Context, session *mcp.ClientSession, leg string, want int) {
	start := time.Now()
	var tools []*mcp.Tool
	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			report(leg, "list tools", false, since(start), "%v", err)
			return
		}
		tools = append(tools, tool)
	}
	report(leg, "list tools", want == 0 || len(tools) == want, since(start), "%d tools", len(tools))

	var unresolved []string
	schemas := map[string]*jsonschema.Schema{}
	resolved := map[string]*jsonschema.Resolved{}
	for _, tool := range tools {
		raw, _ := json.Marshal(tool.InputSchema)
		var schema jsonschema.Schema
		if err := json.Unmarshal(raw, &schema); err != nil {
			unresolved = append(unresolved, fmt.Sprintf("%s: %v", tool.Name, err))
			continue
		}
		r, err := schema.Resolve(nil)
		if err != nil {
			unresolved = append(unresolved, fmt.Sprintf("%s: %v", tool.Name, err))
			continue
		}
		schemas[tool.Name] = &schema
		resolved[tool.Name] = r
	}
	report(leg, "resolve input schemas", len(unresolved) == 0, 0, "%d resolved; %s", len(resolved), strings.Join(unresolved, "; "))

	// Every tool: the arguments its schema's required fields call for (an empty object
	// for a tool that requires none); then what a Go caller sends: numbers as numbers,
	// "latest" where the list offers it.
	type call struct {
		tool string
		args map[string]any
	}
	var calls []call
	var unbuilt []string
	for _, tool := range tools {
		if schemas[tool.Name] == nil {
			continue
		}
		args, why := sampleArguments(schemas[tool.Name])
		if why != "" {
			unbuilt = append(unbuilt, tool.Name+": "+why)
			continue
		}
		calls = append(calls, call{tool.Name, args})
	}
	sampled := len(calls)
	calls = append(calls,
		call{"get_pipeline", map[string]any{"repo_id": 1, "number": 2}},
		call{"get_pipeline", map[string]any{"repo_id": 1, "number": "latest"}},
		call{"get_step_logs", map[string]any{"repo_id": 1, "number": 2, "step_id": 3}},
		call{"list_pipelines", map[string]any{"repo_id": 1}},
	)
	var refused []string
	for _, call := range calls {
		r := resolved[call.tool]
		if r == nil {
			refused = append(refused, call.tool+": not listed")
			continue
		}
		if err := r.Validate(call.args); err != nil {
			refused = append(refused, fmt.Sprintf("%s %v: %v", call.tool, call.args, err))
		}
	}
	problems := append(unbuilt, refused...)
	report(leg, "validate arguments", len(problems) == 0, 0, "sampled %d of %d tools; %s", sampled, len(tools), strings.Join(problems, "; "))
}

// sampleArguments builds an object that holds a value for each required property of a
// tool's input schema, as a caller who read only the schema would; why says what it
// could not build.
func sampleArguments(schema *jsonschema.Schema) (map[string]any, string) {
	args := map[string]any{}
	for _, name := range schema.Required {
		property := schema.Properties[name]
		if property == nil {
			return nil, "required " + name + " has no schema"
		}
		value, ok := sampleValue(property)
		if !ok {
			return nil, "no sample for " + name
		}
		args[name] = value
	}
	return args, ""
}

// Strings tried, in order, against a string schema's pattern.
var sampleStrings = []string{"a", "acme", "acme/web", "https://ci.example.com", "1"}

func sampleValue(schema *jsonschema.Schema) (any, bool) {
	switch {
	case schema.Const != nil:
		return *schema.Const, true
	case len(schema.Enum) > 0:
		return schema.Enum[0], true
	case len(schema.AnyOf) > 0:
		return sampleValue(schema.AnyOf[0])
	case len(schema.OneOf) > 0:
		return sampleValue(schema.OneOf[0])
	}
	switch schema.Type {
	case "integer", "number":
		if schema.Minimum != nil && *schema.Minimum > 1 {
			return *schema.Minimum, true
		}
		return 1, true
	case "boolean":
		return true, true
	case "array":
		items := []any{}
		if schema.MinItems != nil && *schema.MinItems > 0 && schema.Items != nil {
			item, ok := sampleValue(schema.Items)
			if !ok {
				return nil, false
			}
			for range *schema.MinItems {
				items = append(items, item)
			}
		}
		return items, true
	case "object":
		args, why := sampleArguments(schema)
		return args, why == ""
	case "string":
		for _, text := range sampleStrings {
			if schema.MinLength != nil && len(text) < *schema.MinLength {
				continue
			}
			if schema.Pattern != "" {
				if matched, err := regexp.MatchString(schema.Pattern, text); err != nil || !matched {
					continue
				}
			}
			return text, true
		}
	}
	return nil, false
}

func textOf(result *mcp.CallToolResult) string {
	var parts []string
	for _, content := range result.Content {
		if text, ok := content.(*mcp.TextContent); ok {
			parts = append(parts, text.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func callRead(ctx context.Context, session *mcp.ClientSession, leg string) {
	start := time.Now()
	result, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_current_user", Arguments: map[string]any{}})
	if err != nil {
		report(leg, "call a read tool", false, since(start), "%v", err)
		return
	}
	structured, _ := result.StructuredContent.(map[string]any)
	login, _ := structured["login"].(string)
	report(leg, "call a read tool", !result.IsError && login != "", since(start), "login %q %s", login, firstLine(textOf(result)))
}

func firstLine(text string) string {
	first, _, _ := strings.Cut(text, "\n")
	if len(first) > 160 {
		first = first[:160]
	}
	return first
}

func answerDialogs(ctx context.Context, session *mcp.ClientSession, leg string, p *person, repoID int, secret string) {
	args := map[string]any{"scope": "repository", "repo_id": repoID, "name": secret}
	for _, answer := range []string{"decline", "accept"} {
		p.mu.Lock()
		p.answer = answer
		before := p.dialogs
		p.mu.Unlock()
		start := time.Now()
		result, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "delete_secret", Arguments: args})
		p.mu.Lock()
		shown := p.dialogs - before
		p.mu.Unlock()
		check := "dialog: " + answer
		if err != nil {
			report(leg, check, false, since(start), "%v", err)
			continue
		}
		// A decline changes nothing and says so; an accept deletes the secret.
		ok := shown == 1 && result.IsError == (answer == "decline") &&
			(answer != "decline" || strings.HasPrefix(textOf(result), "Nothing was changed"))
		report(leg, check, ok, since(start), "%d dialog(s), isError %v: %s", shown, result.IsError, firstLine(textOf(result)))
	}
}

func reopenListeningStream(ctx context.Context, session *mcp.ClientSession, leg string, streams *getStreams) {
	if !streams.drop() {
		report(leg, "reopen the listening stream", false, 0, "no listening stream was open")
		return
	}
	start := time.Now()
	deadline := time.After(waitLimit)
	for len(streams.statuses()) < 2 {
		select {
		case <-streams.changed:
		case <-deadline:
			report(leg, "reopen the listening stream", false, since(start), "no new GET; statuses %v", streams.statuses())
			return
		}
	}
	statuses := streams.statuses()
	reopened := statuses[len(statuses)-1] == http.StatusOK
	result, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_current_user", Arguments: map[string]any{}})
	alive := err == nil && !result.IsError
	report(leg, "reopen the listening stream", reopened && alive, since(start), "GET statuses %v; session alive %v (%v)", statuses, alive, err)
}

// benchConnects times n connects (and a first tools/list page) on one leg.
func benchConnects(o options, leg, version string, useHTTP bool) {
	for i := 0; i < o.connects; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		start := time.Now()
		session, err := connect(ctx, o, version, useHTTP, &person{}, &getStreams{changed: make(chan struct{}, 4)})
		if err == nil {
			_, err = session.ListTools(ctx, nil)
		}
		ms := since(start)
		if err != nil {
			report(leg, "connect", false, ms, "%v", err)
		} else {
			report(leg, "connect", true, ms, "")
			session.Close()
		}
		cancel()
	}
}
