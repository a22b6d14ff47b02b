// Just enough JSON for the adapter protocol, so the scaffold needs no Maven.
// Replace it with Jackson or Gson once your port has a build tool anyway.
import java.util.*;

final class Json {
    private final String s;
    private int i;

    private Json(String s) { this.s = s; }

    /** Objects become LinkedHashMap, arrays ArrayList, integers Long, other numbers Double. */
    static Object parse(String text) {
        Json p = new Json(text);
        Object v = p.value();
        p.ws();
        if (p.i != text.length()) throw new IllegalArgumentException("trailing data at " + p.i);
        return v;
    }

    static String write(Object v) {
        if (v == null) return "null";
        if (v instanceof String str) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : str.toCharArray()) {
                if (c == '"' || c == '\\') b.append('\\').append(c);
                else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                else b.append(c);
            }
            return b.append('"').toString();
        }
        if (v instanceof Map<?, ?> map) {
            StringJoiner j = new StringJoiner(",", "{", "}");
            map.forEach((k, val) -> j.add(write(k) + ":" + write(val)));
            return j.toString();
        }
        if (v instanceof Collection<?> list) {
            StringJoiner j = new StringJoiner(",", "[", "]");
            list.forEach(val -> j.add(write(val)));
            return j.toString();
        }
        if (v instanceof Double d && !Double.isFinite(d)) {
            throw new ArithmeticException("JSON has no NaN or Infinity (PROTO-2): " + d);
        }
        return v.toString(); // Long, Boolean; Double.toString is shortest round-trip on Java 19+
    }

    private void ws() { while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++; }

    private void eat(char c) {
        ws();
        if (i >= s.length() || s.charAt(i) != c) throw new IllegalArgumentException("expected " + c + " at " + i);
        i++;
    }

    private Object value() {
        ws();
        if (i >= s.length()) throw new IllegalArgumentException("unexpected end");
        char c = s.charAt(i);
        if (c == '{') {
            Map<String, Object> m = new LinkedHashMap<>();
            eat('{');
            ws();
            if (s.charAt(i) == '}') { i++; return m; }
            do { ws(); String k = string(); eat(':'); m.put(k, value()); ws(); } while (s.charAt(i++) == ',');
            if (s.charAt(i - 1) != '}') throw new IllegalArgumentException("expected } at " + (i - 1));
            return m;
        }
        if (c == '[') {
            List<Object> l = new ArrayList<>();
            eat('[');
            ws();
            if (s.charAt(i) == ']') { i++; return l; }
            do { l.add(value()); ws(); } while (s.charAt(i++) == ',');
            if (s.charAt(i - 1) != ']') throw new IllegalArgumentException("expected ] at " + (i - 1));
            return l;
        }
        if (c == '"') return string();
        for (String lit : new String[] {"null", "true", "false"}) {
            if (s.startsWith(lit, i)) { i += lit.length(); return lit.equals("null") ? null : Boolean.valueOf(lit); }
        }
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
        String num = s.substring(start, i);
        if (num.isEmpty()) throw new IllegalArgumentException("bad value at " + start);
        return num.matches("-?[0-9]+") ? (Object) Long.valueOf(num) : (Object) Double.valueOf(num);
    }

    private String string() {
        eat('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = s.charAt(i++);
            if (c == '"') return b.toString();
            if (c != '\\') { b.append(c); continue; }
            char e = s.charAt(i++);
            switch (e) {
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> { b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; }
                default -> b.append(e); // \" \\ \/
            }
        }
    }
}
