package com.acme.orders;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.*;
import com.fasterxml.jackson.databind.node.ObjectNode;

public class CustomerClient {
    private final ObjectMapper mapper = Json.MAPPER;

    Customer fetchCustomer(String body) throws JsonProcessingException {
        return mapper.readValue(body, Customer.class);
    }

    Point parsePoint(String body) throws JsonProcessingException {
        return mapper.readValue(body, Point.class);
    }

    Profile parseProfile(String body) throws JsonProcessingException {
        return mapper.readValue(body, Profile.class);
    }

    Customer fetchCustomerOrNull(String body) throws JsonProcessingException {
        return mapper.readValue(body, Customer.class);
    }

    String displayName(String body) throws JsonProcessingException {
        Customer c = fetchCustomerOrNull(body);
        return c.name.trim();
    }

    void renameCustomer(String body, String newName) throws JsonProcessingException {
        JsonNode tree = mapper.readTree(body);
        ((ObjectNode) tree.get("name")).put("first", newName);
    }
}
