package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Request decoding. encoding/json matches member names without regard to
// case, but the service's names are case-sensitive (so it documents): a client
// sending "merchantID" must not pass here and fail against the real
// service. So the body is first decoded generically, members whose name is
// not exactly a field's are dropped (ignored, like any unknown member), and
// only then decoded into the request struct. A leading UTF-8 BOM is
// tolerated (docs/service.md). A member given twice in one object is refused
// (encoding/json would keep the last one silently: {"paymentId":"A",
// "paymentId":"B"} must not refund B). Text members are bounded (maxLen,
// in decode_bounds.go, the table in doc.go), and so are dates
// (storeTimeMin, storeTimeMax). The members are in decode_amount.go and
// decode_requests.go.

const maxBody = 1 << 20

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// readBody reads a request body without its BOM.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("request body could not be read: %v", err)
	}
	if len(b) > maxBody {
		return nil, errors.New("request body is larger than 1 MiB")
	}
	return bytes.TrimPrefix(b, utf8BOM), nil
}

func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// duplicateMember walks a body already known to be valid JSON (so its
// nesting is bounded by encoding/json's own depth limit) and names the first
// member that appears twice in one object, by its path ("paymentId",
// "amount.value", "items[2].id"), if there is one. The walk keeps its own
// stack: no recursion.
func duplicateMember(body []byte) (path string, found bool) {
	type frame struct {
		object  bool
		path    string
		seen    map[string]bool // object: member names read so far
		key     string          // object: the member whose value comes next
		wantKey bool            // object: the next token is a member name (or '}')
		index   int             // array: the next element's index
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // numbers are skipped, never converted
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false // io.EOF, or a syntax error the decoder already reported
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.wantKey {
			name, _ := tok.(string)
			if top.seen[name] {
				return memberPath(top.path, name), true
			}
			top.seen[name], top.key, top.wantKey = true, name, false
			continue
		}
		path := ""
		switch {
		case top == nil:
		case top.object:
			path, top.wantKey = memberPath(top.path, top.key), true
		default:
			path = fmt.Sprintf("%s[%d]", top.path, top.index)
			top.index++
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, path: path, seen: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{path: path})
		}
	}
}

// memberPath joins a member name to its object's path, cutting what a
// client could make arbitrarily long.
func memberPath(parent, name string) string {
	if parent != "" {
		name = parent + "." + name
	}
	return clip(name, 100)
}

// clip cuts s to at most n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// decodeInto decodes body into v (a pointer to a struct), by exact member
// names, and returns the problems found.
func decodeInto(body []byte, v any) []string {
	if isBlank(body) {
		return []string{"request body is required"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return []string{"request body is not valid JSON: " + err.Error()}
	}
	if dec.More() {
		return []string{"request body is not valid JSON: more than one value"}
	}
	if _, ok := raw.(map[string]any); !ok {
		return []string{"request body must be a JSON object"}
	}
	if dup, found := duplicateMember(body); found {
		return []string{"member " + strconv.Quote(dup) + " is given more than once; give each member once"}
	}
	prune(raw, reflect.TypeOf(v))
	clean, err := json.Marshal(raw)
	if err != nil {
		return []string{"request body is not valid JSON"}
	}
	if err := json.Unmarshal(clean, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return []string{fmt.Sprintf("%s must be %s, not a JSON %s", te.Field, kindName(te.Type), te.Value)}
		}
		return []string{"request body is not valid: " + err.Error()}
	}
	return nil
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		return "an object"
	case reflect.Slice:
		return "an array or value"
	default:
		return "a " + t.Kind().String()
	}
}

var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

func jsonFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = f.Type
	}
	fieldCache.Store(t, m)
	return m
}

// prune drops object members whose names are not exactly those of t.
func prune(v any, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return
		}
		fields := jsonFields(t)
		for k, val := range obj {
			ft, ok := fields[k]
			if !ok {
				delete(obj, k)
				continue
			}
			prune(val, ft)
		}
	case reflect.Slice, reflect.Array:
		if arr, ok := v.([]any); ok {
			for _, e := range arr {
				prune(e, t.Elem())
			}
		}
	}
}
