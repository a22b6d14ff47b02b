// __HRC_NAME__: an hrc adapter (spec/adapter-protocol.md). One JSON object per line.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.function.Function;

public final class Adapter {
    /** Throw it for an optional feature this port does not have: answered `unsupported` (OP-2). */
    static final class Unsupported extends RuntimeException {
        Unsupported(String message) { super(message); }
    }

    /** TEXT-8: the length of `text` in Unicode code points. Not length() (UTF-16 units). */
    static Object opLength(Map<String, Object> input) {
        if (!(input.get("text") instanceof String text)) throw new IllegalArgumentException("text must be a string");
        return Map.of("length", (long) text.codePointCount(0, text.length()));
    }

    /** Add one entry per operation you implement. */
    static final Map<String, Function<Map<String, Object>, Object>> OPERATIONS = new TreeMap<>(Map.of("length", Adapter::opLength));

    @SuppressWarnings("unchecked")
    static Map<String, Object> answer(Map<String, Object> msg) {
        Map<String, Object> out = new LinkedHashMap<>(Map.of("type", "result"));
        out.put("seq", msg.get("seq"));
        try {
            var op = OPERATIONS.get((String) msg.get("op"));
            if (op == null) throw new IllegalArgumentException("unknown operation " + msg.get("op"));
            out.put("output", op.apply((Map<String, Object>) msg.get("input")));
        } catch (Unsupported e) {
            out.put("type", "error"); // a feature this port does not have (OP-2)
            out.put("error", Map.of("kind", "unsupported", "message", String.valueOf(e.getMessage())));
        } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
            out.put("type", "error"); // the input breaks the spec (OP-2)
            out.put("error", Map.of("kind", "invalid_input", "message", String.valueOf(e.getMessage())));
        }
        return out;
    }

    /** The answer's line; an output Json.write refuses (NaN, Infinity) is a bug, still answered. */
    static String reply(Map<String, Object> msg) {
        try {
            return Json.write(answer(msg));
        } catch (ArithmeticException e) {
            System.err.println("cannot write the answer: " + e.getMessage());
            Map<String, Object> error = new LinkedHashMap<>(Map.of("type", "error"));
            error.put("seq", msg.get("seq"));
            error.put("error", Map.of("kind", "internal_error", "message", "output is not JSON: " + e.getMessage()));
            return Json.write(error);
        }
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws IOException {
        var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        var out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) continue;
            var msg = (Map<String, Object>) Json.parse(line);
            switch ((String) msg.get("type")) {
                case "hello" -> out.println(Json.write(Map.of("type", "hello", "protocol", 1L, "name", "__HRC_NAME__",
                        "version", "0.0.1", "specVersion", "__HRC_SPEC_VERSION__", "operations", List.copyOf(OPERATIONS.keySet()),
                        "capabilities", List.of(), "dataFiles", Map.of()))); // dataFiles: see README.md (PROTO-28)
                case "run" -> out.println(reply(msg));
                case "bye" -> { return; }
                default -> { }
            }
        }
    }
}
