package com.acme.orders;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.*;

public class DrawingService {
    private final ObjectMapper mapper = Json.MAPPER;

    Drawing load(String body) throws JsonProcessingException {
        return mapper.readValue(body, Drawing.class);
    }

    Drawing loadForUser(String user, String body) {
        try {
            return load(body);
        } catch (JsonProcessingException e) {
            throw new ImportException("Drawing of " + user + " could not be loaded", e);
        }
    }

    String render(Object value) throws JsonProcessingException {
        return mapper.writeValueAsString(value);
    }
}
