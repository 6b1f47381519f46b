package com.acme.orders;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;

/** Reads "120px" as 120. */
public class PixelDeserializer extends StdDeserializer<Integer> {
    public PixelDeserializer() { super(Integer.class); }

    @Override
    public Integer deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
        String text = p.getText();
        return Integer.parseInt(text.endsWith("px") ? text.substring(0, text.length() - 3) : text);
    }
}
